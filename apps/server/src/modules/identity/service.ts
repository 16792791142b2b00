import {
  AppError,
  canonicalDocumentNumber,
  isAmountString,
  parseAmount,
  type ResultKey,
} from '@bourse/shared';
import type { AuthContext } from '../../platform/auth-hook.ts';
import type { Clock } from '../../platform/clock.ts';
import { type Db, isUniqueViolation } from '../../platform/db.ts';
import { documentNumberKey, type KeyedHash, legacyDocumentKey } from '../../platform/keyed-hash.ts';
import type { Limit } from '../../platform/rate-limit.ts';
import type { IdentityDocType, IdentityStatus } from '../../platform/schema.ts';
import type { StaffActor } from '../../platform/staff-actor.ts';
import { fromMillis, toMillis } from '../../platform/time.ts';
import type { FileStore, ImageUploads, UploadedFile } from '../../platform/uploads.ts';
import type { AuditService } from '../audit/service.ts';
import type { Notifier } from '../notices/service.ts';
import type { SettingsService } from '../settings/service.ts';
import type { UsersService } from '../users/service.ts';
import * as repo from './repository.ts';

/** `users.realname_status` values. */
export const REALNAME = { none: 0n, pending: 1n, verified: 2n, rejected: 3n } as const;
const QUEUE_PAGE = 50;
const SETTING_WITHDRAW_ABOVE = 'identity.withdraw_above_usdt';
const SETTING_TRADING = 'identity.trading';
/** How long the trading switch is reused on the order path before it is read again. */
export const POLICY_CACHE_MS = 5_000;

export interface IdentityDeps {
  db: Db;
  clock: Clock;
  users: UsersService;
  audit: AuditService;
  settings: SettingsService;
  notices: Notifier;
  /** Checks and re-encodes identity images into the private store (never served publicly). */
  uploads: ImageUploads;
  /** The private store itself, read only through the audited back-office endpoint. */
  store: FileStore;
  /** Identity images uploaded per user. */
  uploadsPerUser: Limit;
  /** Hashes document numbers with the server's secret: the number itself is never stored. */
  documentHash: KeyedHash;
}

/**
 * Work done inside the transaction that approves an identity, with the identity its document is
 * (`doc_hash`: one per document number, whatever country is declared; the delivery module gives
 * the account its trial money there, once per identity).
 */
export type ApprovalHook = (trx: Db, userId: bigint, identityHash: string) => Promise<void>;

/** Which identity a document is, and the keyed hash of its number. */
interface DocumentIdentity {
  /** What trial grants and same-identity links are keyed on (`identity_verifications.doc_hash`). */
  docHash: string;
  /** The keyed hash of the canonical number alone (`identity_verifications.number_hash`). */
  numberHash: string;
  /** Accounts whose approved identity this document already is. */
  approvedUsers: bigint[];
}

/** A document number's canonical form (`canonicalDocumentNumber`); DOCUMENT_NUMBER_INVALID if none. */
function canonicalNumberOf(documentNumber: string): string {
  const canonical = canonicalDocumentNumber(documentNumber);
  if (canonical === undefined) throw new AppError('DOCUMENT_NUMBER_INVALID');
  return canonical;
}

function normalizeCountry(country: string): string {
  return country.trim().toUpperCase();
}

function maskRealName(name: string): string {
  const chars = [...name];
  return `${chars[0] ?? ''}${'*'.repeat(Math.max(chars.length - 1, 1))}`;
}

/** What `upload` can answer besides the codes every route can. */
export const UPLOAD_ERRORS = [
  'IMAGE_REQUIRED',
  'REALNAME_ALREADY',
  'UPLOAD_NOT_IMAGE',
  'UPLOAD_TOO_LARGE',
  'IMAGE_TOO_LARGE',
  'UPLOAD_BUSY',
  'UPLOAD_FAILED',
  'TOO_MANY_REQUESTS',
] as const satisfies readonly ResultKey[];

/** What `submit` can answer besides the codes every route can. */
export const SUBMIT_ERRORS = [
  'REALNAME_ALREADY',
  'REALNAME_INVALID',
  'COUNTRY_INVALID',
  'PHONE_INVALID',
  'DOCUMENT_NUMBER_INVALID',
  'IMAGE_REQUIRED',
  'PARAM_ERROR',
] as const satisfies readonly ResultKey[];

/** What `view` can answer besides the codes every route can. */
export const VIEW_ERRORS = ['RECORD_NOT_FOUND'] as const satisfies readonly ResultKey[];

/** What `image` can answer besides the codes every route can. */
export const IMAGE_ERRORS = ['RECORD_NOT_FOUND'] as const satisfies readonly ResultKey[];

/** What `decide` can answer when approving. */
export const DECIDE_APPROVE_ERRORS = [
  'RECORD_NOT_FOUND',
  'ILLEGAL_OPERATION',
  'DOCUMENT_NUMBER_INVALID',
  'DOCUMENT_NUMBER_MISMATCH',
  'DOCUMENT_COUNTRY_MISMATCH',
  'PHONE_INVALID',
  'REALNAME_INVALID',
  'COUNTRY_INVALID',
  'IMAGE_REQUIRED',
  'BALANCE_INSUFFICIENT',
] as const satisfies readonly ResultKey[];

/** What `decide` can answer when rejecting. */
export const DECIDE_REJECT_ERRORS = [
  'RECORD_NOT_FOUND',
  'ILLEGAL_OPERATION',
  'PARAM_MISSING',
] as const satisfies readonly ResultKey[];

/** What `setPolicy` can answer besides the codes every route can. */
export const SET_POLICY_ERRORS = ['CONFIG_AMOUNT_INVALID'] as const satisfies readonly ResultKey[];

/**
 * Real-name verification (the `identity_*` tables' owner): private image uploads, submissions,
 * the compliance review, and the policy of which actions need a verified identity. Images live in
 * a store of their own that nothing serves publicly; staff read them through an audited call.
 */
export class IdentityService {
  readonly #deps: IdentityDeps;
  #tradingSwitch: { isOn: boolean; readAt: number } | undefined;

  readonly #approvalHooks: ApprovalHook[] = [];

  constructor(deps: IdentityDeps) {
    this.#deps = deps;
  }

  /**
   * Adds work to every identity approval, in its transaction: what it writes commits or rolls
   * back with the approval. A module that needs identity at construction (delivery asks whether
   * an account is verified) adds its hook once it exists, before any request.
   */
  addApprovalHook(hook: ApprovalHook): void {
    this.#approvalHooks.push(hook);
  }

  async #approved(trx: Db, userId: bigint, identityHash: string): Promise<void> {
    for (const hook of this.#approvalHooks) await hook(trx, userId, identityHash);
  }

  /** Stores one identity image for the user; answers its handle for the submission. */
  async upload(auth: AuthContext, file: UploadedFile | undefined): Promise<string> {
    const { db, clock, uploads, uploadsPerUser } = this.#deps;
    if (!file) throw new AppError('IMAGE_REQUIRED');
    if (await repo.hasOpenOrApproved(db, auth.userId)) throw new AppError('REALNAME_ALREADY');
    if (!(await uploadsPerUser.take(`user:${auth.userId}`))) throw new AppError('TOO_MANY_REQUESTS');
    const stored = await uploads.storeImage(file);
    await repo.insertUpload(db, { name: stored.name, userId: auth.userId, now: toMillis(clock.now()) });
    return stored.name;
  }

  /**
   * Submits the user's identity for review. Refused with REALNAME_ALREADY while one is under
   * review or approved (a unique index settles concurrent submissions); each image must be one the
   * user uploaded and has not used (IMAGE_REQUIRED otherwise).
   */
  async submit(
    auth: AuthContext,
    input: {
      type: IdentityDocType;
      realName: string;
      country: string;
      mobile: string;
      documentNumber: string;
      front: string;
      back: string;
    },
  ): Promise<void> {
    const { db, clock, users } = this.#deps;
    const canonical = canonicalNumberOf(input.documentNumber);
    if (await repo.hasOpenOrApproved(db, auth.userId)) throw new AppError('REALNAME_ALREADY');
    if (input.front === input.back) throw new AppError('IMAGE_REQUIRED');
    try {
      await db.transaction().execute(async (trx) => {
        if (!(await repo.useUpload(trx, auth.userId, input.front))) throw new AppError('IMAGE_REQUIRED');
        if (!(await repo.useUpload(trx, auth.userId, input.back))) throw new AppError('IMAGE_REQUIRED');
        // why: a submission under review already links its account to others of the same document
        // (the hedge rule), so it records the identity the typed number is.
        const identity = await this.#identityOf(trx, canonical);
        await repo.insertVerification(trx, {
          userId: auth.userId,
          type: input.type,
          realName: input.realName,
          country: input.country,
          mobile: input.mobile,
          docHash: identity.docHash,
          numberHash: identity.numberHash,
          front: input.front,
          back: input.back,
          now: toMillis(clock.now()),
        });
        await users.setRealnameStatus(trx, auth.userId, REALNAME.pending);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('REALNAME_ALREADY');
      throw error;
    }
  }

  /**
   * Which identity a canonical document number is, inside `trx`. Its hash is of the number alone;
   * rows recorded before (hashed with their declared country, the number not kept) are recognised
   * by recomputing that old hash under each country they declare. The identity is the `doc_hash`
   * of the document's first approval when it has one (an old hash for a document approved before:
   * the grants given are keyed on it, so the unique (plan, identity) index still refuses a second),
   * the number's hash otherwise. Every submission under review or approved of the number is
   * re-keyed to that identity and given the number's hash: the same document declared under
   * several countries before becomes one identity, and an old row is found by its number's hash
   * from then on.
   */
  async #identityOf(trx: Db, canonical: string): Promise<DocumentIdentity> {
    const { documentHash } = this.#deps;
    const numberHash = documentHash.hash(documentNumberKey(canonical));
    const legacyHashes = (await repo.listLegacyHashCountries(trx)).map((country) =>
      documentHash.hash(legacyDocumentKey(country, canonical)),
    );
    const rows = await repo.listSameNumber(trx, numberHash, legacyHashes);
    const approved = rows.filter((row) => row.status === 'approved');
    const docHash = approved.find((row) => row.doc_hash !== null)?.doc_hash ?? numberHash;
    // why: rows in ascending id order, so two approvals of one number re-key them in the same
    // order and never wait on each other's row locks in a cycle.
    for (const row of rows) {
      if (row.doc_hash === docHash && row.number_hash === numberHash) continue;
      await repo.setIdentity(trx, row.id, { docHash, numberHash });
    }
    return { docHash, numberHash, approvedUsers: [...new Set(approved.map((row) => row.user_id))] };
  }

  /**
   * Whether `canonical` is the number the customer typed for this submission: compared with its
   * number's hash, or for a submission recorded before, with its hash of declared country and
   * number. A submission from before numbers were asked for has neither and takes the reviewer's.
   */
  #isNumberOf(
    row: { country: string; doc_hash: string | null; number_hash: string | null },
    canonical: string,
  ): boolean {
    const { documentHash } = this.#deps;
    if (row.number_hash !== null) return row.number_hash === documentHash.hash(documentNumberKey(canonical));
    if (row.doc_hash !== null)
      return row.doc_hash === documentHash.hash(legacyDocumentKey(row.country, canonical));
    return true;
  }

  /** The keyed hash of the user's approved identity document; undefined when not verified. */
  async verifiedIdentityHash(db: Db, userId: bigint): Promise<string | undefined> {
    return (await repo.findApprovedOfUser(db, userId))?.doc_hash ?? undefined;
  }

  /**
   * Other accounts with the same identity: a submission under review or approved with the same
   * document (its keyed hash) as one of the user's.
   */
  sameIdentityAccounts(db: Db, userId: bigint): Promise<bigint[]> {
    return repo.listSameDocumentUsers(db, userId);
  }

  /**
   * Records an approved identity without images or review, for the platform's own demo accounts
   * (the demo seed): audited like a staff decision, and the approval hook runs as for any other.
   * An account already approved only has the hook run again (it grants nothing twice).
   */
  async approveDemoIdentity(
    trx: Db,
    input: { userId: bigint; realName: string; country: string; mobile: string; documentNumber: string },
  ): Promise<void> {
    const { clock, users, audit } = this.#deps;
    const canonical = canonicalNumberOf(input.documentNumber);
    const approved = await repo.findApprovedOfUser(trx, input.userId);
    if (approved) {
      if (approved.doc_hash) await this.#approved(trx, input.userId, approved.doc_hash);
      return;
    }
    const identity = await this.#identityOf(trx, canonical);
    const id = await repo.insertVerification(trx, {
      userId: input.userId,
      type: 'id_card',
      realName: input.realName,
      country: input.country,
      mobile: input.mobile,
      docHash: identity.docHash,
      numberHash: identity.numberHash,
      front: '',
      back: '',
      now: toMillis(clock.now()),
      status: 'approved',
    });
    await users.setRealnameStatus(trx, input.userId, REALNAME.verified);
    await audit.record(trx, {
      actor: 'system',
      action: 'identity.approve',
      target: `identity:${id}`,
      after: { status: 'approved', user: String(input.userId), demo: true },
      ip: '',
    });
    await this.#approved(trx, input.userId, identity.docHash);
  }

  /** The user's verification state (the latest submission), with the real name masked. */
  async state(userId: bigint) {
    const row = await repo.findLatestOfUser(this.#deps.db, userId);
    const status = await this.#deps.users.realnameStatus(userId);
    return {
      status: Number(status),
      type: row?.doc_type ?? '',
      realName: row ? maskRealName(row.real_name) : '',
      country: row?.country ?? '',
      submittedAt: row ? fromMillis(row.created_at) : null,
      reviewedAt: row?.reviewed_at ? fromMillis(row.reviewed_at) : null,
      reason: row?.status === 'rejected' ? row.reason : '',
    };
  }

  // ---- back office ----

  async queue(status: IdentityStatus, page: number) {
    const rows = await repo.listByStatus(this.#deps.db, status, QUEUE_PAGE + 1, (page - 1) * QUEUE_PAGE);
    return { list: rows.slice(0, QUEUE_PAGE).map(toReview), hasMore: rows.length > QUEUE_PAGE };
  }

  /** One submission with its personal data: the view is audited. */
  async view(staff: StaffActor, id: bigint) {
    const { db, audit } = this.#deps;
    const row = await repo.findVerification(db, id);
    if (!row) throw new AppError('RECORD_NOT_FOUND');
    await audit.record(db, {
      actor: staff.actor,
      action: 'identity.view',
      target: `identity:${id}`,
      ip: staff.ip,
    });
    return toReview(row);
  }

  /** One identity image's bytes: each read is audited. */
  async image(staff: StaffActor, id: bigint, side: 'front' | 'back'): Promise<Buffer> {
    const { db, audit, store } = this.#deps;
    const row = await repo.findVerification(db, id);
    if (!row) throw new AppError('RECORD_NOT_FOUND');
    const bytes = await store.read(side === 'front' ? row.front_image : row.back_image);
    if (!bytes) throw new AppError('RECORD_NOT_FOUND');
    await audit.record(db, {
      actor: staff.actor,
      action: 'identity.image',
      target: `identity:${id}`,
      after: { side },
      ip: staff.ip,
    });
    return bytes;
  }

  /**
   * Approves or rejects a submission under review; the user is told. An approval carries the
   * document number and the issuing country as the reviewer reads them on the image: the number's
   * hash must equal the one of the number the customer typed (DOCUMENT_NUMBER_MISMATCH otherwise)
   * and the country must be the one the customer declared (DOCUMENT_COUNTRY_MISMATCH otherwise);
   * either way nothing changes. The number decides the identity the trial grant and the
   * same-identity link are keyed on (a submission from before numbers were asked for takes the
   * reviewer's); the country is recorded with it, and both confirmations go into the audit record.
   */
  async decide(
    staff: StaffActor,
    id: bigint,
    decision: { approve: true; documentNumber: string; country: string } | { approve: false; reason: string },
  ) {
    const { db, clock, audit, users, notices } = this.#deps;
    const reason = decision.approve ? '' : decision.reason.trim();
    if (!decision.approve && !reason) throw new AppError('PARAM_MISSING');
    const canonical = decision.approve ? canonicalNumberOf(decision.documentNumber) : undefined;
    const userId = await db.transaction().execute(async (trx) => {
      const row = await repo.findVerification(trx, id);
      if (!row) throw new AppError('RECORD_NOT_FOUND');
      // why: a decided submission is not re-checked (nor its document re-keyed) by a late decision.
      if (row.status !== 'pending') throw new AppError('ILLEGAL_OPERATION');
      const status = decision.approve ? 'approved' : 'rejected';
      let identity: DocumentIdentity | undefined;
      if (decision.approve && canonical !== undefined) {
        if (!this.#isNumberOf(row, canonical)) throw new AppError('DOCUMENT_NUMBER_MISMATCH');
        if (normalizeCountry(decision.country) !== normalizeCountry(row.country))
          throw new AppError('DOCUMENT_COUNTRY_MISMATCH');
        identity = await this.#identityOf(trx, canonical);
      }
      const moved = await repo.decide(trx, id, {
        status,
        reason,
        staffId: staff.staffId,
        now: toMillis(clock.now()),
        identity,
      });
      if (!moved) throw new AppError('ILLEGAL_OPERATION');
      await users.setRealnameStatus(
        trx,
        row.user_id,
        decision.approve ? REALNAME.verified : REALNAME.rejected,
      );
      await audit.record(trx, {
        actor: staff.actor,
        action: decision.approve ? 'identity.approve' : 'identity.reject',
        target: `identity:${id}`,
        before: { status: row.status, user: String(row.user_id) },
        after: identity
          ? {
              status,
              // why: what the reviewer confirmed on the image (the number itself is never kept),
              // and the accounts whose approved identity this document already was (no new grant).
              confirmedCountry: row.country,
              confirmedDocumentNumber: true,
              sameDocumentAs: identity.approvedUsers
                .filter((other) => other !== row.user_id)
                .map((other) => String(other)),
            }
          : { status },
        reason: reason || undefined,
        ip: staff.ip,
      });
      if (identity) await this.#approved(trx, row.user_id, identity.docHash);
      if (decision.approve) await notices.notify(trx, row.user_id, 'IDENTITY_APPROVED');
      else await notices.notify(trx, row.user_id, 'IDENTITY_REJECTED', { reason });
      return row.user_id;
    });
    notices.changed(userId);
    return toReview(
      (await repo.findVerification(db, id)) as NonNullable<Awaited<ReturnType<typeof repo.findVerification>>>,
    );
  }

  async policy(): Promise<{ withdrawAboveUsdt: string; trading: boolean }> {
    const { settings } = this.#deps;
    return {
      withdrawAboveUsdt: (await settings.get(SETTING_WITHDRAW_ABOVE)) ?? '',
      trading: (await settings.get(SETTING_TRADING)) === '1',
    };
  }

  async setPolicy(staff: StaffActor, policy: { withdrawAboveUsdt: string; trading: boolean }): Promise<void> {
    const { db, audit, settings } = this.#deps;
    const threshold = policy.withdrawAboveUsdt.trim();
    if (threshold !== '' && !isAmountString(threshold)) throw new AppError('CONFIG_AMOUNT_INVALID');
    const before = await this.policy();
    await db.transaction().execute(async (trx) => {
      await settings.set(trx, SETTING_WITHDRAW_ABOVE, threshold);
      await settings.set(trx, SETTING_TRADING, policy.trading ? '1' : '0');
      await audit.record(trx, {
        actor: staff.actor,
        action: 'identity.policy',
        target: 'settings:identity',
        before,
        after: { withdrawAboveUsdt: threshold, trading: policy.trading },
        ip: staff.ip,
      });
    });
    this.#tradingSwitch = undefined;
  }

  /** REALNAME_REQUIRED when the policy asks for a verified identity above this withdrawal's value. */
  async requireForWithdrawal(userId: bigint, usdtValue: bigint): Promise<void> {
    const threshold = await this.#deps.settings.get(SETTING_WITHDRAW_ABOVE);
    if (!threshold || !isAmountString(threshold)) return;
    const limit = parseAmount(threshold);
    if (usdtValue <= limit && limit > 0n) return;
    if ((await this.#deps.users.realnameStatus(userId)) !== REALNAME.verified) {
      throw new AppError('REALNAME_REQUIRED');
    }
  }

  /**
   * REALNAME_REQUIRED when the policy asks for a verified identity to trade. On the order path, so
   * the switch is read at most once per {@link POLICY_CACHE_MS} (a change made on another node
   * applies here within that time); the user's state is read only while the switch is on.
   */
  async requireForTrading(userId: bigint): Promise<void> {
    const now = this.#deps.clock.now();
    if (
      !this.#tradingSwitch ||
      now - this.#tradingSwitch.readAt >= POLICY_CACHE_MS ||
      now < this.#tradingSwitch.readAt
    ) {
      this.#tradingSwitch = { isOn: (await this.#deps.settings.get(SETTING_TRADING)) === '1', readAt: now };
    }
    if (!this.#tradingSwitch.isOn) return;
    if ((await this.#deps.users.realnameStatus(userId)) !== REALNAME.verified) {
      throw new AppError('REALNAME_REQUIRED');
    }
  }
}

function toReview(row: NonNullable<Awaited<ReturnType<typeof repo.findVerification>>>) {
  return {
    id: row.id,
    userId: row.user_id,
    username: row.username,
    type: row.doc_type,
    realName: row.real_name,
    country: row.country,
    mobile: row.mobile,
    status: row.status,
    reason: row.reason,
    reviewedBy: row.reviewer ?? null,
    reviewedAt: row.reviewed_at === null ? null : fromMillis(row.reviewed_at),
    createdAt: fromMillis(row.created_at),
  };
}
