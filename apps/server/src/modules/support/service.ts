import { AppError, type ResultKey } from '@bourse/shared';
import type { AuthContext } from '../../platform/auth-hook.ts';
import type { Bus } from '../../platform/bus.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Db } from '../../platform/db.ts';
import type { Limit } from '../../platform/rate-limit.ts';
import type { StaffActor } from '../../platform/staff-actor.ts';
import { fromMillis, toMillis } from '../../platform/time.ts';
import type { FileStore, ImageUploads, UploadedFile } from '../../platform/uploads.ts';
import type { AuditService } from '../audit/service.ts';
import * as repo from './repository.ts';

/** Longest text message (characters). */
export const MESSAGE_MAX = 2000;
const PAGE = 50;
/** The bus subject of a new message (persisted): the user's open apps are told. */
export const SUPPORT_SUBJECT = 'support.message';

export interface SupportDeps {
  db: Db;
  clock: Clock;
  bus: Bus;
  audit: AuditService;
  /** Checks and re-encodes chat images into the chat's private store. */
  uploads: ImageUploads;
  store: FileStore;
  /** Messages (text or image) per user. */
  messagesPerUser: Limit;
  /** The user's recent deposits and withdrawals, for the console's context panel. */
  wallet?: {
    recentActivity(
      userId: bigint,
    ): Promise<
      { kind: 'deposit' | 'withdrawal'; coin: string; amount: string; status: string; createdAt: number }[]
    >;
  };
  onError: (error: unknown) => void;
}

export interface ChatMessage {
  id: bigint;
  sender: 'user' | 'staff';
  body: string;
  image: string | null;
  staffName: string | null;
  createdAt: number;
}

type MessageRow = Omit<Awaited<ReturnType<typeof repo.findMessage>>, 'conversation_id'>;
const toMessage = (row: MessageRow): ChatMessage => ({
  id: row.id,
  sender: row.sender,
  body: row.body,
  image: row.image,
  staffName: row.staff_name ?? null,
  createdAt: fromMillis(row.created_at),
});

/** What `sendText` can answer besides the codes every route can. */
export const SEND_TEXT_ERRORS = [
  'PARAM_ERROR',
  'PARAM_MISSING',
  'TOO_MANY_REQUESTS',
] as const satisfies readonly ResultKey[];

/** What `sendImage` can answer besides the codes every route can. */
export const SEND_IMAGE_ERRORS = [
  'UPLOAD_NOT_IMAGE',
  'UPLOAD_TOO_LARGE',
  'IMAGE_TOO_LARGE',
  'UPLOAD_BUSY',
  'UPLOAD_FAILED',
  'TOO_MANY_REQUESTS',
] as const satisfies readonly ResultKey[];

/** What `imageForUser` can answer besides the codes every route can. */
export const IMAGE_FOR_USER_ERRORS = ['NOT_FOUND'] as const satisfies readonly ResultKey[];

/** What `openForStaff` can answer besides the codes every route can. */
export const OPEN_FOR_STAFF_ERRORS = ['RECORD_NOT_FOUND'] as const satisfies readonly ResultKey[];

/** What `reply` can answer besides the codes every route can. */
export const REPLY_ERRORS = ['RECORD_NOT_FOUND', 'PARAM_ERROR'] as const satisfies readonly ResultKey[];

/** What `imageForStaff` can answer besides the codes every route can. */
export const IMAGE_FOR_STAFF_ERRORS = ['NOT_FOUND'] as const satisfies readonly ResultKey[];

/**
 * Built-in support chat (the `support_*` tables' owner): one conversation per user, messages
 * persisted (a text, or an image in a private store), unread counts on both sides, a per-user
 * limit reserved before each message, and staff replies audited.
 */
export class SupportService {
  readonly #deps: SupportDeps;

  constructor(deps: SupportDeps) {
    this.#deps = deps;
  }

  /** The user's messages, newest page first (`before`: older than that id), and their unread count. */
  async history(userId: bigint, before?: bigint) {
    const { db } = this.#deps;
    const conversation = await repo.findConversationOfUser(db, userId);
    if (!conversation) return { messages: [] as ChatMessage[], unread: 0, hasMore: false };
    const rows = await repo.listMessages(db, conversation.id, before, PAGE + 1);
    return {
      messages: rows.slice(0, PAGE).map(toMessage),
      unread: Number(conversation.user_unread),
      hasMore: rows.length > PAGE,
    };
  }

  async message(id: bigint): Promise<ChatMessage> {
    return toMessage(await repo.findMessage(this.#deps.db, id));
  }

  async unread(userId: bigint): Promise<number> {
    const conversation = await repo.findConversationOfUser(this.#deps.db, userId);
    return conversation ? Number(conversation.user_unread) : 0;
  }

  /** A text from the user; an empty or over-long one answers PARAM_ERROR, a burst TOO_MANY_REQUESTS. */
  async sendText(auth: AuthContext, body: string): Promise<ChatMessage> {
    const text = body.trim();
    if (!text || [...text].length > MESSAGE_MAX) throw new AppError('PARAM_ERROR');
    await this.#takeSlot(auth.userId);
    return this.#post(auth.userId, { sender: 'user', staffId: null, body: text, image: null });
  }

  /** An image from the user, checked and re-encoded like every upload, kept private to the conversation. */
  async sendImage(auth: AuthContext, file: UploadedFile | undefined): Promise<ChatMessage> {
    if (!file) throw new AppError('UPLOAD_NOT_IMAGE');
    await this.#takeSlot(auth.userId);
    const stored = await this.#deps.uploads.storeImage(file);
    return this.#post(auth.userId, { sender: 'user', staffId: null, body: '', image: stored.name });
  }

  async markReadByUser(userId: bigint): Promise<void> {
    const conversation = await repo.findConversationOfUser(this.#deps.db, userId);
    if (conversation) await repo.markRead(this.#deps.db, conversation.id, 'user');
  }

  /** An image's bytes for the user whose conversation it is in; anyone else's answers NOT_FOUND. */
  async imageForUser(userId: bigint, name: string): Promise<Buffer> {
    const owner = await repo.findImage(this.#deps.db, name);
    if (!owner || owner.user_id !== userId) throw new AppError('NOT_FOUND');
    return this.#read(name);
  }

  // ---- support staff ----

  async conversations() {
    const { db } = this.#deps;
    const rows = await repo.listConversations(db, 200);
    const last = await repo.lastMessages(
      db,
      rows.map((r) => r.id),
    );
    return rows.map((row) => ({
      id: row.id,
      userId: row.user_id,
      username: row.username,
      unread: Number(row.staff_unread),
      lastMessageAt: fromMillis(row.last_message_at),
      preview: last.get(row.id)?.body ?? '',
      previewIsImage: Boolean(last.get(row.id)?.image),
    }));
  }

  /** A conversation for staff: its messages (newest page) and the user's context; marks it read (audited). */
  async openForStaff(staff: StaffActor, id: bigint, before?: bigint) {
    const { db, audit, wallet } = this.#deps;
    const conversation = await repo.findConversation(db, id);
    if (!conversation) throw new AppError('RECORD_NOT_FOUND');
    const rows = await repo.listMessages(db, id, before, PAGE + 1);
    if (before === undefined && conversation.staff_unread > 0n) {
      await db.transaction().execute(async (trx) => {
        await repo.markRead(trx, id, 'staff');
        await audit.record(trx, {
          actor: staff.actor,
          action: 'support.read',
          target: `support:${id}`,
          ip: staff.ip,
        });
      });
    }
    return {
      id,
      user: {
        id: conversation.user_id,
        username: conversation.username,
        realnameStatus: Number(conversation.realname_status),
        activity: (await wallet?.recentActivity(conversation.user_id)) ?? [],
      },
      messages: rows.slice(0, PAGE).map(toMessage),
      hasMore: rows.length > PAGE,
    };
  }

  /** A staff reply; the user's open apps get it at once (after commit). Audited. */
  async reply(staff: StaffActor, id: bigint, body: string): Promise<ChatMessage> {
    const { db } = this.#deps;
    const text = body.trim();
    if (!text || [...text].length > MESSAGE_MAX) throw new AppError('PARAM_ERROR');
    const conversation = await repo.findConversation(db, id);
    if (!conversation) throw new AppError('RECORD_NOT_FOUND');
    return this.#post(
      conversation.user_id,
      { sender: 'staff', staffId: staff.staffId, body: text, image: null },
      staff,
    );
  }

  /** An image of a conversation for staff, as bytes. */
  async imageForStaff(name: string): Promise<Buffer> {
    if (!(await repo.findImage(this.#deps.db, name))) throw new AppError('NOT_FOUND');
    return this.#read(name);
  }

  async #read(name: string): Promise<Buffer> {
    const bytes = await this.#deps.store.read(name);
    if (!bytes) throw new AppError('NOT_FOUND');
    return bytes;
  }

  // why: reserve before the work: a burst fired at once cannot post more than the limit.
  async #takeSlot(userId: bigint): Promise<void> {
    if (!(await this.#deps.messagesPerUser.take(`user:${userId}`))) throw new AppError('TOO_MANY_REQUESTS');
  }

  async #post(
    userId: bigint,
    message: { sender: 'user' | 'staff'; staffId: bigint | null; body: string; image: string | null },
    staff?: { actor: string; ip: string },
  ): Promise<ChatMessage> {
    const { db, clock, audit, bus } = this.#deps;
    const now = toMillis(clock.now());
    const id = await db.transaction().execute(async (trx) => {
      const conversationId = await repo.ensureConversation(trx, userId, now);
      const messageId = await repo.insertMessage(trx, { conversationId, ...message, now });
      if (staff) {
        await audit.record(trx, {
          actor: staff.actor,
          action: 'support.reply',
          target: `support:${conversationId}`,
          after: { message: String(messageId), length: message.body.length },
          ip: staff.ip,
        });
      }
      return messageId;
    });
    const row = await repo.findMessage(db, id);
    bus.publish(SUPPORT_SUBJECT, { userId, messageId: id }).catch(this.#deps.onError);
    return toMessage(row);
  }
}
