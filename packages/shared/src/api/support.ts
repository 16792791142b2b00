import { z } from 'zod';
import { tokenField } from './fields.ts';
import { idField } from './wallet.ts';

/** One chat message as the customer app and the console see it. */
export const ChatMessageWire = z.object({
  id: z.number().int(),
  sender: z.enum(['user', 'staff']),
  body: z.string(),
  /** The image's generated name (read it through the chat's image call), null for text. */
  image: z.string().nullable(),
  /** The support agent who answered (staff messages). */
  staff_name: z.string().nullable(),
  created_at: z.number().int(),
});
export type ChatMessageWire = z.infer<typeof ChatMessageWire>;

export const ChatHistoryQuery = z.object({ before: idField.optional(), token: tokenField });
export type ChatHistoryQuery = z.input<typeof ChatHistoryQuery>;

export const ChatHistory = z.object({
  /** Newest first. */
  messages: z.array(ChatMessageWire),
  unread: z.number().int(),
  has_more: z.boolean(),
});
export type ChatHistory = z.infer<typeof ChatHistory>;

export const ChatSendBody = z.object({
  body: z.string({ error: 'PARAM_MISSING' }).max(4000, { error: 'PARAM_ERROR' }),
  token: tokenField,
});
export type ChatSendBody = z.input<typeof ChatSendBody>;

export const ChatImageQuery = z.object({
  name: z.string().regex(/^[0-9a-f]{32}\.webp$/, { error: 'NOT_FOUND' }),
  token: tokenField,
});
export type ChatImageQuery = z.input<typeof ChatImageQuery>;

// ---- back office ----

export const SupportConversation = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  username: z.string(),
  unread: z.number().int(),
  lastMessageAt: z.number().int(),
  preview: z.string(),
  previewIsImage: z.boolean(),
});
export type SupportConversation = z.infer<typeof SupportConversation>;
export const SupportConversationList = z.object({ list: z.array(SupportConversation) });
export type SupportConversationList = z.infer<typeof SupportConversationList>;

export const SupportThread = z.object({
  id: z.number().int(),
  user: z.object({
    id: z.number().int(),
    username: z.string(),
    /** 0 not verified, 1 under review, 2 verified, 3 rejected. */
    realnameStatus: z.number().int(),
    activity: z.array(
      z.object({
        kind: z.enum(['deposit', 'withdrawal']),
        coin: z.string(),
        amount: z.string(),
        status: z.string(),
        createdAt: z.number().int(),
      }),
    ),
  }),
  messages: z.array(ChatMessageWire),
  hasMore: z.boolean(),
});
export type SupportThread = z.infer<typeof SupportThread>;

export const SupportIdParams = z.object({ id: z.coerce.number().int().min(1) });
export type SupportIdParams = z.input<typeof SupportIdParams>;
export const SupportReplyBody = z.object({ body: z.string().max(4000) });
export type SupportReplyBody = z.input<typeof SupportReplyBody>;
export const SupportImageParams = z.object({ name: z.string().regex(/^[0-9a-f]{32}\.webp$/) });
export type SupportImageParams = z.input<typeof SupportImageParams>;
