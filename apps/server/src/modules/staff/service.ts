import { AppError, type ResultKey } from '@bourse/shared';
import { generateSecret, generateURI, verify } from 'otplib';
import type { ClientInfo } from '../../platform/auth-hook.ts';
import type { Clock } from '../../platform/clock.ts';
import { hashPassword, newToken, randomCode, sha256, verifyPassword } from '../../platform/crypto.ts';
import { type Db, isUniqueViolation } from '../../platform/db.ts';
import {
  deleteOldestCreatedBefore,
  type PruneResult,
  pruneInSlices,
  type SliceOptions,
} from '../../platform/prune.ts';
import type { Limit } from '../../platform/rate-limit.ts';
import { SecretBox } from '../../platform/secret-box.ts';
import {
  isSessionExpired,
  SESSION_TOUCH_INTERVAL_MS,
  type SessionPolicy,
} from '../../platform/session-store.ts';
import type { StaffActor } from '../../platform/staff-actor.ts';
import { fromMillis, toMillis } from '../../platform/time.ts';
import type { AuditService } from '../audit/service.ts';
import { canRole, type Permission, ROLE_PERMISSIONS, type StaffRole } from './permissions.ts';
import * as repo from './repository.ts';

export interface StaffLimits {
  /** Password attempts per staff name and client address. */
  loginPerAccountAndIp: Limit;
  /** Password attempts per client address. */
  loginPerIp: Limit;
  /** TOTP codes tried per staff account. */
  totpChecks: Limit;
}

export interface StaffDeps {
  db: Db;
  clock: Clock;
  audit: AuditService;
  /** How long staff sessions live: shorter than customers' (README: `STAFF_SESSION_*`). */
  policy: SessionPolicy;
  limits: StaffLimits;
  /** Shown in authenticator apps next to the account. */
  totpIssuer: string;
  /** Seals TOTP secrets at rest (`STAFF_SECRET_KEY`); the store never holds one in plain text. */
  secrets: SecretBox;
}

/** The signed-in staff member of a request, and who they are in audit records. */
/** A staff member's live session: who acts, plus the session and the role the hook checks. */
export interface StaffContext extends StaffActor {
  sessionId: bigint;
  role: StaffRole;
}

export type LoginStep =
  | { step: 'enrol'; ticket: string; secret: string; otpauthUrl: string; mustChangePassword: boolean }
  | { step: 'totp'; ticket: string };

export interface StaffView {
  id: bigint;
  username: string;
  role: StaffRole;
  status: 'active' | 'disabled';
  totpEnabled: boolean;
  mustChangePassword: boolean;
  createdAt: number;
}

/** A login step (password accepted, TOTP code awaited) lives this long. */
export const LOGIN_STEP_TTL_MS = 5 * 60_000;
// why: a code typed just as its 30-second window closes is still accepted (one step back or ahead).
const TOTP_TOLERANCE_SECONDS = 30;

/** What `login` can answer besides the codes every route can. */
export const LOGIN_ERRORS = [
  'USER_OR_PASSWORD_WRONG',
  'STAFF_DISABLED',
  'TOO_MANY_REQUESTS',
] as const satisfies readonly ResultKey[];

/** What `completeLogin` can answer besides the codes every route can. */
export const COMPLETE_LOGIN_ERRORS = [
  'STAFF_LOGIN_EXPIRED',
  'STAFF_DISABLED',
  'STAFF_PASSWORD_CHANGE_REQUIRED',
  'STAFF_TOTP_WRONG',
  'TOO_MANY_REQUESTS',
] as const satisfies readonly ResultKey[];

/** What `createStaff` can answer besides the codes every route can. */
export const CREATE_STAFF_ERRORS = ['STAFF_EXISTS'] as const satisfies readonly ResultKey[];

/** What `setStaffStatus` can answer besides the codes every route can. */
export const SET_STAFF_STATUS_ERRORS = [
  'ILLEGAL_OPERATION',
  'NOT_FOUND',
] as const satisfies readonly ResultKey[];

/**
 * Staff accounts and their sessions (owner of `staff` and `staff_sessions`): password + TOTP
 * login, enrolment at first login, roles, and the first owner at first start.
 */
export class StaffService {
  readonly #deps: StaffDeps;

  constructor(deps: StaffDeps) {
    this.#deps = deps;
  }

  /**
   * Creates the first owner when there is no staff account yet: from `ADMIN_USER`/`ADMIN_PASSWORD`
   * when given, else `admin` with a one-time password that must be changed at first login.
   * Returns what was created (the one-time password only in that case), or undefined.
   */
  async bootstrapOwner(input: {
    username?: string;
    password?: string;
  }): Promise<{ username: string; oneTimePassword?: string } | undefined> {
    const { db, clock, audit } = this.#deps;
    if ((await repo.countStaff(db)) > 0n) return undefined;
    const username = input.username || 'admin';
    const oneTimePassword = input.password ? undefined : randomCode(16);
    const passwordHash = await hashPassword(input.password || (oneTimePassword as string));
    try {
      await db.transaction().execute(async (trx) => {
        // why: two nodes starting at once must not both create an owner.
        if ((await repo.countStaff(trx)) > 0n) throw new AppError('STAFF_EXISTS');
        const id = await repo.insertStaff(trx, {
          username,
          passwordHash,
          role: 'owner',
          mustChangePassword: oneTimePassword !== undefined,
          now: toMillis(clock.now()),
        });
        await audit.record(trx, {
          actor: 'system',
          action: 'staff.bootstrap',
          target: `staff:${id}`,
          after: { username, role: 'owner', oneTimePassword: oneTimePassword !== undefined },
        });
      });
    } catch (error) {
      if (error instanceof AppError || isUniqueViolation(error)) return undefined;
      throw error;
    }
    return { username, oneTimePassword };
  }

  /**
   * First step of a login: checks the password (limited per name and address, the slot taken
   * before the hash is compared) and answers a short-lived ticket. Without TOTP yet, the answer
   * carries a new secret and its otpauth URL for enrolment.
   */
  async login(input: { username: string; password: string }, client: ClientInfo): Promise<LoginStep> {
    const { db, clock, limits } = this.#deps;
    const ipKey = `ip:${client.ip}`;
    const accountIpKey = `staff:${input.username.toLowerCase()}|${ipKey}`;
    if (!(await limits.loginPerIp.take(ipKey))) throw new AppError('TOO_MANY_REQUESTS');
    if (!(await limits.loginPerAccountAndIp.take(accountIpKey))) {
      await limits.loginPerIp.giveBack(ipKey);
      throw new AppError('TOO_MANY_REQUESTS');
    }
    const staff = await repo.findStaffByUsername(db, input.username);
    if (!staff || !(await verifyPassword(staff.password_hash, input.password))) {
      throw new AppError('USER_OR_PASSWORD_WRONG');
    }
    if (staff.status !== 'active') throw new AppError('STAFF_DISABLED');
    await limits.loginPerAccountAndIp.clear(accountIpKey);
    await limits.loginPerIp.giveBack(ipKey);

    const ticket = newToken();
    const isEnrolled = staff.totp_enabled === 1n;
    const secret = isEnrolled ? undefined : generateSecret();
    await db.transaction().execute(async (trx) => {
      if (secret) await repo.updateTotpSecret(trx, staff.id, this.#deps.secrets.seal(secret));
      await repo.staffSessionStore.insert(trx, {
        ownerId: staff.id,
        tokenHash: sha256(ticket),
        stage: isEnrolled ? 'totp' : 'enrol',
        ip: client.ip,
        device: client.device,
        now: toMillis(clock.now()),
      });
    });
    if (!secret) return { step: 'totp', ticket };
    return {
      step: 'enrol',
      ticket,
      secret,
      otpauthUrl: generateURI({ issuer: this.#deps.totpIssuer, label: staff.username, secret }),
      mustChangePassword: staff.must_change_password === 1n,
    };
  }

  /**
   * Second step: the ticket of `login` and the current TOTP code (limited per account, never the
   * same code twice). At enrolment it switches TOTP on and, when required, sets the new password.
   * Opens the staff session and audits the login in one transaction.
   */
  async completeLogin(
    stage: 'enrol' | 'totp',
    input: { ticket: string; code: string; newPassword?: string },
    client: ClientInfo,
  ): Promise<{ token: string; staff: StaffView }> {
    const { db, clock, limits, audit } = this.#deps;
    const step = await repo.findLiveStaffSession(db, sha256(input.ticket));
    const now = clock.now();
    if (!step || step.stage !== stage || now - fromMillis(step.createdAt) >= LOGIN_STEP_TTL_MS) {
      throw new AppError('STAFF_LOGIN_EXPIRED');
    }
    const staff = await repo.findStaffById(db, step.staffId);
    if (staff?.status !== 'active') throw new AppError('STAFF_DISABLED');
    const isPasswordChange = stage === 'enrol' && staff.must_change_password === 1n;
    if (isPasswordChange && !input.newPassword) throw new AppError('STAFF_PASSWORD_CHANGE_REQUIRED');

    const limitKey = `staff:${staff.id}`;
    if (!(await limits.totpChecks.take(limitKey))) throw new AppError('TOO_MANY_REQUESTS');
    const timeStep = await this.#checkCode(staff.totp_secret, input.code, staff.totp_last_step, now);
    if (timeStep === undefined) throw new AppError('STAFF_TOTP_WRONG');
    const passwordHash = isPasswordChange ? await hashPassword(input.newPassword as string) : undefined;

    const token = newToken();
    await db.transaction().execute(async (trx) => {
      if (!(await repo.acceptTotpStep(trx, staff.id, BigInt(timeStep))))
        throw new AppError('STAFF_TOTP_WRONG');
      if (!(await repo.staffSessionStore.revoke(trx, step.sessionId, toMillis(now)))) {
        throw new AppError('STAFF_LOGIN_EXPIRED');
      }
      if (passwordHash) await repo.updateStaffPassword(trx, staff.id, passwordHash);
      await repo.staffSessionStore.insert(trx, {
        ownerId: staff.id,
        tokenHash: sha256(token),
        stage: 'active',
        ip: client.ip,
        device: client.device,
        now: toMillis(now),
      });
      await audit.record(trx, {
        actor: `staff:${staff.id}`,
        action: stage === 'enrol' ? 'staff.totp_enrol' : 'staff.login',
        target: `staff:${staff.id}`,
        before: stage === 'enrol' ? { totpEnabled: false } : undefined,
        after: stage === 'enrol' ? { totpEnabled: true, passwordChanged: isPasswordChange } : undefined,
        ip: client.ip,
      });
    });
    await limits.totpChecks.clear(limitKey);
    const fresh = await repo.findStaffById(db, staff.id);
    return { token, staff: toStaffView(fresh ?? staff) };
  }

  /**
   * Resolves a staff session token: unknown, ended, idle or over-age sessions, login steps, and
   * sessions of disabled staff answer SESSION_INVALID; an expired one is ended on the spot.
   */
  async authenticate(token: string | undefined, client: ClientInfo): Promise<StaffContext> {
    const { db, clock, policy } = this.#deps;
    if (!token) throw new AppError('SESSION_INVALID');
    const session = await repo.findLiveStaffSession(db, sha256(token));
    if (session?.stage !== 'active' || session.status !== 'active') {
      throw new AppError('SESSION_INVALID');
    }
    const now = clock.now();
    const lastUsedAt = fromMillis(session.lastUsedAt);
    if (isSessionExpired(policy, { createdAt: fromMillis(session.createdAt), lastUsedAt }, now)) {
      await repo.staffSessionStore.revoke(db, session.sessionId, toMillis(now));
      throw new AppError('SESSION_INVALID');
    }
    if (now - lastUsedAt >= SESSION_TOUCH_INTERVAL_MS) {
      await repo.staffSessionStore.touch(db, session.sessionId, client.ip, toMillis(now));
    }
    return {
      staffId: session.staffId,
      sessionId: session.sessionId,
      username: session.username,
      role: session.role,
      actor: `staff:${session.staffId}`,
      ip: client.ip,
    };
  }

  /**
   * Retention: deletes, in bounded slices, staff sessions (and login steps) that have been over for
   * `retentionMs`, the sessions' retention (`SESSION_RETENTION_DAYS`, customers' and staff's alike).
   */
  prune(retentionMs: number, slices: SliceOptions): Promise<PruneResult> {
    const { db, clock, policy } = this.#deps;
    // why: counted from the staff maximum age, as customers' sessions are from theirs, not from
    // now: the retention may be set to 0 days, and a staff session lives up to its maximum age
    // (hours) whatever the retention. Every staff session has ended by then (a login step within
    // minutes), so one opened more than the maximum age and the retention ago is dead, and no
    // setting can delete a session still valid.
    const before = toMillis(clock.now() - policy.maxAgeMs - retentionMs);
    return pruneInSlices((limit) => deleteOldestCreatedBefore(db, 'staff_sessions', before, limit), slices);
  }

  /** Refuses with STAFF_FORBIDDEN when the staff member's role lacks the permission. */
  authorize(staff: StaffContext, permission: Permission): void {
    if (!canRole(staff.role, permission)) throw new AppError('STAFF_FORBIDDEN');
  }

  async logout(staff: StaffContext): Promise<void> {
    const { db, clock, audit } = this.#deps;
    await db.transaction().execute(async (trx) => {
      await repo.staffSessionStore.revoke(trx, staff.sessionId, toMillis(clock.now()));
      await audit.record(trx, {
        actor: staff.actor,
        action: 'staff.logout',
        target: staff.actor,
        ip: staff.ip,
      });
    });
  }

  async me(staff: StaffContext): Promise<StaffView & { permissions: readonly Permission[] }> {
    const row = await repo.findStaffById(this.#deps.db, staff.staffId);
    if (!row) throw new AppError('SESSION_INVALID');
    return { ...toStaffView(row), permissions: ROLE_PERMISSIONS[row.role] };
  }

  async listStaff(): Promise<StaffView[]> {
    return (await repo.listStaff(this.#deps.db)).map(toStaffView);
  }

  /** Creates a staff account (owner only); its password must be changed at its first login. */
  async createStaff(
    actor: StaffContext,
    input: { username: string; password: string; role: StaffRole },
  ): Promise<bigint> {
    const { db, clock, audit } = this.#deps;
    const passwordHash = await hashPassword(input.password);
    try {
      return await db.transaction().execute(async (trx) => {
        if (await repo.findStaffByUsername(trx, input.username)) throw new AppError('STAFF_EXISTS');
        const id = await repo.insertStaff(trx, {
          username: input.username,
          passwordHash,
          role: input.role,
          mustChangePassword: true,
          now: toMillis(clock.now()),
        });
        await audit.record(trx, {
          actor: actor.actor,
          action: 'staff.create',
          target: `staff:${id}`,
          after: { username: input.username, role: input.role, status: 'active' },
          ip: actor.ip,
        });
        return id;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('STAFF_EXISTS');
      throw error;
    }
  }

  /** Disables (ending every session) or enables a staff account; nobody disables themselves. */
  async setStaffStatus(
    actor: StaffContext,
    input: { staffId: bigint; status: 'active' | 'disabled'; reason: string },
  ): Promise<void> {
    const { db, clock, audit } = this.#deps;
    if (input.staffId === actor.staffId) throw new AppError('ILLEGAL_OPERATION');
    await db.transaction().execute(async (trx) => {
      const target = await repo.findStaffById(trx, input.staffId);
      if (!target) throw new AppError('NOT_FOUND');
      await repo.updateStaffStatus(trx, input.staffId, input.status);
      if (input.status === 'disabled') {
        await repo.staffSessionStore.revokeAllOf(trx, input.staffId, toMillis(clock.now()));
      }
      await audit.record(trx, {
        actor: actor.actor,
        action: input.status === 'disabled' ? 'staff.disable' : 'staff.enable',
        target: `staff:${input.staffId}`,
        before: { status: target.status },
        after: { status: input.status },
        reason: input.reason,
        ip: actor.ip,
      });
    });
  }

  /**
   * Seals the TOTP secrets still stored in plain text (written before they were encrypted), and
   * counts the sealed ones this key cannot open: those staff cannot sign in until they are
   * enrolled again, or the right `STAFF_SECRET_KEY` is given.
   */
  async sealPlainSecrets(): Promise<{ sealed: number; unreadable: number }> {
    const { db, secrets } = this.#deps;
    let sealed = 0;
    let unreadable = 0;
    for (const row of await repo.listTotpSecrets(db)) {
      if (!SecretBox.isSealed(row.secret)) {
        if (await repo.replaceTotpSecret(db, row.id, row.secret, secrets.seal(row.secret))) sealed += 1;
      } else if (this.#openSecret(row.secret) === undefined) unreadable += 1;
    }
    return { sealed, unreadable };
  }

  /** The plain secret; undefined when this key cannot open it (fails closed: no code matches). */
  #openSecret(stored: string): string | undefined {
    try {
      return this.#deps.secrets.open(stored);
    } catch {
      return undefined;
    }
  }

  /** The time step of a right, unused code; undefined otherwise. */
  async #checkCode(
    stored: string | null,
    code: string,
    lastStep: bigint,
    now: number,
  ): Promise<number | undefined> {
    const secret = stored === null ? undefined : this.#openSecret(stored);
    if (!secret || !/^\d{6}$/.test(code)) return undefined;
    const result = await verify({
      secret,
      token: code,
      epoch: Math.floor(now / 1000),
      epochTolerance: TOTP_TOLERANCE_SECONDS,
    });
    if (!result.valid || !('timeStep' in result) || BigInt(result.timeStep) <= lastStep) return undefined;
    return result.timeStep;
  }
}

function toStaffView(row: {
  id: bigint;
  username: string;
  role: StaffRole;
  status: 'active' | 'disabled';
  totp_enabled: bigint;
  must_change_password: bigint;
  created_at: bigint;
}): StaffView {
  return {
    id: row.id,
    username: row.username,
    role: row.role,
    status: row.status,
    totpEnabled: row.totp_enabled === 1n,
    mustChangePassword: row.must_change_password === 1n,
    createdAt: fromMillis(row.created_at),
  };
}
