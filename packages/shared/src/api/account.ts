import { z } from 'zod';
import { isCountryCode } from '../countries.ts';
import { canonicalDocumentNumber } from '../document-number.ts';
import { optionalText, textField, tokenField } from './fields.ts';
import { historyQuery, idField } from './wallet.ts';

// ---- Notifications (`/user/notice`, `/User/noticeinfo`, `/user/readnoticeone`) ----

/** `/user/notice`: newest first, 20 a page; `before` is the last `id` of the previous page (see `historyQuery`). */
export const NoticeListQuery = historyQuery({ token: tokenField });
export type NoticeListQuery = z.input<typeof NoticeListQuery>;

/** `/user/noticecount`. */
export const NoticeCountQuery = z.object({ token: tokenField });
export type NoticeCountQuery = z.input<typeof NoticeCountQuery>;

export const NoticeItem = z.object({
  id: z.number().int(),
  title: z.string(),
  /** The first line of the body, plain text. */
  summary: z.string(),
  created_at: z.number().int(),
  /** 0 unread, 1 read. */
  read: z.union([z.literal(0), z.literal(1)]),
  /** `system`: written by an event (a deposit, a review); `broadcast`: written by staff. */
  kind: z.enum(['system', 'broadcast']),
});
export type NoticeItem = z.infer<typeof NoticeItem>;

export const NoticeList = z.object({
  list: z.array(NoticeItem),
  unread: z.number().int(),
  page: z.number().int(),
  has_more: z.boolean(),
  /** The reader's anti-phishing code ('' when none): shown at the top of notifications. */
  anti_phishing: z.string(),
});
export type NoticeList = z.infer<typeof NoticeList>;

export const NoticeQuery = z.object({ id: idField, token: tokenField });
export type NoticeQuery = z.input<typeof NoticeQuery>;

export const NoticeDetail = NoticeItem.extend({
  /** Plain text; paragraphs separated by blank lines. */
  content: z.string(),
  anti_phishing: z.string(),
});
export type NoticeDetail = z.infer<typeof NoticeDetail>;

/** `id` 0 marks every notification read. */
export const ReadNoticeBody = z.object({
  id: z.coerce
    .number({ error: 'PARAM_ERROR' })
    .int({ error: 'PARAM_ERROR' })
    .min(0, { error: 'PARAM_ERROR' }),
  token: tokenField,
});
export type ReadNoticeBody = z.input<typeof ReadNoticeBody>;

export const UnreadCount = z.object({ unread: z.number().int() });
export type UnreadCount = z.infer<typeof UnreadCount>;

// ---- Real-name verification (`/user/authrz`, `/user/upauthrz`) ----

export const IDENTITY_DOC_TYPES = ['passport', 'driver_licence', 'ssn', 'id_card'] as const;
export type IdentityDocType = (typeof IDENTITY_DOC_TYPES)[number];

export const IdentityUploadResult = z.object({
  /** The image's handle for `front` or `back` of `/user/upauthrz`; usable once, by its uploader. */
  image: z.string(),
});
export type IdentityUploadResult = z.infer<typeof IdentityUploadResult>;

export const IdentitySubmitBody = z.object({
  type: z.enum(IDENTITY_DOC_TYPES, {
    error: (i) => (i.input === undefined ? 'PARAM_MISSING' : 'PARAM_ERROR'),
  }),
  realname: textField('REALNAME_INVALID', { min: 2, max: 100 }),
  country: textField('COUNTRY_INVALID', { max: 2 }).refine((v) => isCountryCode(v), {
    error: 'COUNTRY_INVALID',
  }),
  mobile: textField('PHONE_INVALID', { max: 20 }).refine((v) => /^\+?\d{6,15}$/.test(v), {
    error: 'PHONE_INVALID',
  }),
  /**
   * The document's number as printed, compared as {@link canonicalDocumentNumber} reads it (case,
   * separators and full-width forms do not matter). The server keeps only a keyed hash of it: one
   * identity, one trial grant, across accounts, whatever country is declared.
   */
  idno: textField('DOCUMENT_NUMBER_INVALID', { max: 60 }).refine(
    (v) => canonicalDocumentNumber(v) !== undefined,
    { error: 'DOCUMENT_NUMBER_INVALID' },
  ),
  front: textField('IMAGE_REQUIRED', { max: 64 }),
  back: textField('IMAGE_REQUIRED', { max: 64 }),
  token: tokenField,
});
export type IdentitySubmitBody = z.input<typeof IdentitySubmitBody>;

export const IdentityState = z.object({
  /** 0 not verified, 1 under review, 2 verified, 3 rejected (the profile's `realname_status`). */
  status: z.number().int(),
  type: z.string(),
  /** Masked: the first character and `*` for the rest. */
  realname: z.string(),
  country: z.string(),
  submitted_at: z.number().int().nullable(),
  reviewed_at: z.number().int().nullable(),
  /** The rejection reason, '' otherwise. */
  reason: z.string(),
});
export type IdentityState = z.infer<typeof IdentityState>;

// ---- Security centre ----

export const SecurityOverview = z.object({
  email: z.string(),
  phone: z.string(),
  totp_enabled: z.boolean(),
  /** Backup codes not yet used. */
  backup_codes_left: z.number().int(),
  anti_phishing: z.string(),
  paypassword: z.boolean(),
  realname_status: z.number().int(),
});
export type SecurityOverview = z.infer<typeof SecurityOverview>;

export const TotpSetup = z.object({ secret: z.string(), otpauth_url: z.string() });
export type TotpSetup = z.infer<typeof TotpSetup>;

export const userTotpField = textField('TOTP_WRONG', { max: 16 });

export const TotpCodeBody = z.object({ code: userTotpField, token: tokenField });
export type TotpCodeBody = z.input<typeof TotpCodeBody>;

export const BackupCodes = z.object({ backup_codes: z.array(z.string()) });
export type BackupCodes = z.infer<typeof BackupCodes>;

export const ANTI_PHISHING_RE = /^[A-Za-z0-9]{4,20}$/;

export const AntiPhishingBody = z.object({
  code: textField('ANTI_PHISHING_INVALID', { max: 20 }).refine((v) => ANTI_PHISHING_RE.test(v), {
    error: 'ANTI_PHISHING_INVALID',
  }),
  token: tokenField,
});
export type AntiPhishingBody = z.input<typeof AntiPhishingBody>;

export const SessionItem = z.object({
  id: z.number().int(),
  device: z.string(),
  ip: z.string(),
  created_at: z.number().int(),
  last_used_at: z.number().int(),
  current: z.boolean(),
});
export type SessionItem = z.infer<typeof SessionItem>;
export const SessionList = z.object({ list: z.array(SessionItem) });
export type SessionList = z.infer<typeof SessionList>;

export const EndSessionBody = z.object({ id: idField, token: tokenField });
export type EndSessionBody = z.input<typeof EndSessionBody>;

export const UserLoginLogItem = z.object({
  id: z.number().int(),
  created_at: z.number().int(),
  ip: z.string(),
  device: z.string(),
  success: z.boolean(),
  /** The result's message key (`OK`, `LOGIN_PASSWORD_WRONG`, …). */
  reason: z.string(),
});
export type UserLoginLogItem = z.infer<typeof UserLoginLogItem>;
export const UserLoginLog = z.object({
  list: z.array(UserLoginLogItem),
  page: z.number().int(),
  has_more: z.boolean(),
});
export type UserLoginLog = z.infer<typeof UserLoginLog>;
/** `/user/loginlog`: newest first, 20 a page; `before` is the last `id` of the previous page (see `historyQuery`). */
export const UserLoginLogQuery = historyQuery({ token: tokenField });
export type UserLoginLogQuery = z.input<typeof UserLoginLogQuery>;

export const EMAIL_RE = /^[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9.-]{1,190}\.[A-Za-z]{2,24}$/;

const emailField = textField('EMAIL_INVALID', { max: 255 }).refine((v) => EMAIL_RE.test(v), {
  error: 'EMAIL_INVALID',
});

const captcha = {
  vcode: optionalText('EMAIL_OR_CAPTCHA_WRONG', 16),
  key: optionalText('EMAIL_OR_CAPTCHA_WRONG', 64),
};

/** Sends a code to the e-mail: `bind_email` (signed in: the new address) or `reset_password` (anyone). */
export const SendEmailCodeBody = z.object({
  email: emailField,
  ...captcha,
  token: tokenField,
});
export type SendEmailCodeBody = z.input<typeof SendEmailCodeBody>;

export const CodeSent = z.object({
  /** Seconds before another code may be asked for (the resend countdown). */
  resend_after: z.number().int(),
});
export type CodeSent = z.infer<typeof CodeSent>;

export const emailCodeField = textField('EMAIL_CODE_WRONG', { max: 12 });

export const BindEmailBody = z.object({ email: emailField, code: emailCodeField, token: tokenField });
export type BindEmailBody = z.input<typeof BindEmailBody>;

export const BindMobileBody = z.object({
  mobile: textField('PHONE_INVALID', { max: 20 }).refine((v) => /^\+?\d{6,15}$/.test(v), {
    error: 'PHONE_INVALID',
  }),
  lpwd: textField('LOGIN_PASSWORD_WRONG', { max: 256, trim: false }),
  token: tokenField,
});
export type BindMobileBody = z.input<typeof BindMobileBody>;

export const ResetPasswordBody = z.object({
  email: emailField,
  code: emailCodeField,
  lpwd: textField('PASSWORD_INVALID', { min: 6, max: 32, trim: false }),
  relpwd: textField('PASSWORDS_INCONSISTENT', { max: 256, trim: false }),
  token: tokenField,
});
export type ResetPasswordBody = z.input<typeof ResetPasswordBody>;

/** `POST /user/online`: the address of the operator's online support. */
export const OnlineSupportUrl = z.string();
export type OnlineSupportUrl = z.infer<typeof OnlineSupportUrl>;
