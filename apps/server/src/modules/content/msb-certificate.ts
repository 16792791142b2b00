import { AppError, type ResultKey } from '@bourse/shared';
import type { Db } from '../../platform/db.ts';
import type { StaffActor } from '../../platform/staff-actor.ts';
import { type ImageUploads, toUploadUrl, type UploadedFile } from '../../platform/uploads.ts';
import type { AuditService } from '../audit/service.ts';
import type { SettingsService } from '../settings/service.ts';

/** The setting that names the stored certificate image ('' or absent: none). */
const MSB_IMAGE = 'content.msb_certificate_image';

/** What `setImage` can answer besides the codes every route can. */
export const SET_MSB_IMAGE_ERRORS = [
  'PARAM_MISSING',
  'UPLOAD_NOT_IMAGE',
  'UPLOAD_TOO_LARGE',
  'IMAGE_TOO_LARGE',
  'UPLOAD_BUSY',
  'UPLOAD_FAILED',
] as const satisfies readonly ResultKey[];

/**
 * The operator's MSB registration certificate: one image, shown on `/Index/msb` beside the page
 * text staff write as the `msb` content page. The image goes through the platform's upload checks
 * (content sniffed, re-encoded, stored under a generated name in the public uploads); every
 * change is audited, and the replaced file is deleted once the change is committed.
 */
export class MsbCertificate {
  readonly #db: Db;
  readonly #settings: SettingsService;
  readonly #audit: AuditService;
  readonly #uploads: ImageUploads;

  constructor(deps: { db: Db; settings: SettingsService; audit: AuditService; uploads: ImageUploads }) {
    this.#db = deps.db;
    this.#settings = deps.settings;
    this.#audit = deps.audit;
    this.#uploads = deps.uploads;
  }

  /** The certificate image's public URL, or '' when none is set. */
  async imageUrl(): Promise<string> {
    const name = await this.#settings.get(MSB_IMAGE);
    return name ? toUploadUrl(name) : '';
  }

  /** Stores `file` as the certificate (replacing any), audited; answers its URL. */
  async setImage(staff: StaffActor, file: UploadedFile | undefined): Promise<string> {
    if (!file) throw new AppError('PARAM_MISSING');
    const stored = await this.#uploads.storeImage(file);
    try {
      await this.#replace(staff, stored.name, 'content.msb_image_set');
    } catch (error) {
      // why: a file no setting names would never be served or removed.
      await this.#uploads.removeImage(stored.name).catch(() => {});
      throw error;
    }
    return stored.url;
  }

  /** Removes the certificate image (nothing to do when none is set), audited. */
  async removeImage(staff: StaffActor): Promise<void> {
    await this.#replace(staff, '', 'content.msb_image_remove');
  }

  async #replace(staff: StaffActor, name: string, action: string): Promise<void> {
    const before = await this.#db.transaction().execute(async (trx) => {
      const previous = (await this.#settings.get(MSB_IMAGE, trx)) ?? '';
      if (previous === name) return previous;
      await this.#settings.set(trx, MSB_IMAGE, name);
      await this.#audit.record(trx, {
        actor: staff.actor,
        action,
        target: 'settings:msb_certificate',
        before: { image: previous ? toUploadUrl(previous) : '' },
        after: { image: name ? toUploadUrl(name) : '' },
        ip: staff.ip,
      });
      return previous;
    });
    if (before && before !== name) await this.#uploads.removeImage(before).catch(() => {});
  }
}
