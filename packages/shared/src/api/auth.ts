import { z } from 'zod';
import { PASSWORD_MAX, PASSWORD_MIN, PHONE_RE, USERNAME_RE } from './auth-constants.ts';
import { optionalSecret, optionalText, termsVersionField, textField, tokenField } from './fields.ts';

// why: the limits a page reads without validating anything are in a module without zod, so
// such a page does not load zod and the schemas (the package declares no side effects).
export * from './auth-constants.ts';

const password = (invalid: 'PASSWORD_INVALID' | 'WITHDRAW_PASSWORD_INVALID') =>
  textField(invalid, { min: PASSWORD_MIN, max: PASSWORD_MAX, trim: false });

const captcha = {
  vcode: optionalText('CAPTCHA_WRONG', 16),
  key: optionalText('CAPTCHA_WRONG', 64),
};

export const RegisterBody = z.object({
  account: textField('USERNAME_INVALID', { max: 255 }).refine((v) => USERNAME_RE.test(v), {
    error: 'USERNAME_INVALID',
  }),
  lpwd: password('PASSWORD_INVALID'),
  invit: optionalText('INVITE_CODE_INVALID', 32),
  ...captcha,
  /**
   * The terms-of-service version the person accepted on the form (`GET /Index/terms`); it must be
   * the current one. Optional: an account created without it accepts before trading.
   */
  terms_version: termsVersionField.optional(),
  token: tokenField,
});
export type RegisterBody = z.input<typeof RegisterBody>;

export const RegisterPhoneBody = RegisterBody.extend({
  account: textField('PHONE_INVALID', { max: 32 }).refine((v) => PHONE_RE.test(v), {
    error: 'PHONE_INVALID',
  }),
});
export type RegisterPhoneBody = z.input<typeof RegisterPhoneBody>;

export const LoginBody = z.object({
  email: textField('USER_NOT_FOUND', { max: 255 }),
  lpwd: textField('LOGIN_PASSWORD_WRONG', { max: 256, trim: false }),
  ...captcha,
  /** The two-factor code (6 digits) or a backup code; required when the account has codes on. */
  gacode: optionalText('TOTP_WRONG', 16),
  token: tokenField,
});
export type LoginBody = z.input<typeof LoginBody>;

export const TokenOnly = z.object({ token: tokenField });
export type TokenOnly = z.input<typeof TokenOnly>;

export const ChangePasswordBody = z.object({
  oldpwd: textField('OLD_PASSWORD_WRONG', { max: 256, trim: false }),
  newpwd: password('PASSWORD_INVALID'),
  renewpwd: textField('PASSWORDS_INCONSISTENT', { max: 256, trim: false }),
  token: tokenField,
});
export type ChangePasswordBody = z.input<typeof ChangePasswordBody>;

export const WithdrawPasswordBody = z.object({
  paypassword: password('WITHDRAW_PASSWORD_INVALID'),
  repaypassword: textField('PASSWORDS_INCONSISTENT', { max: 256, trim: false }),
  oldpaypassword: optionalSecret('WITHDRAW_PASSWORD_WRONG', 256),
  token: tokenField,
});
export type WithdrawPasswordBody = z.input<typeof WithdrawPasswordBody>;

/** Login and registration settings of this deployment (`GET /Login/config`). */
export const ClientConfig = z.object({
  /** 1: username and password; 2: mobile number and password. */
  register_mode: z.union([z.literal(1), z.literal(2)]),
  /** Whether login and register ask for the graphic code. */
  captcha: z.boolean(),
  price_source: z.string(),
});
export type ClientConfig = z.infer<typeof ClientConfig>;

/** A graphic code: `key` goes back with the answer, `img` is a data: URL of the picture. */
export const CaptchaImage = z.object({ key: z.string(), img: z.string() });
export type CaptchaImage = z.infer<typeof CaptchaImage>;

export const LoginResult = z.object({ token: z.string(), uid: z.number().int() });
export type LoginResult = z.infer<typeof LoginResult>;

export const UserInfo = z.object({
  id: z.number().int(),
  username: z.string(),
  paypassword: z.union([z.literal(0), z.literal(1)]),
  is_address: z.union([z.literal(0), z.literal(1)]),
  email: z.string(),
  phone: z.string(),
  level: z.number().int(),
  credit: z.number().int(),
  last_login_time: z.number().int().nullable(),
  last_login_ip: z.string(),
  invite_code: z.string(),
  reg_ip: z.string(),
  /** Who invited the user, masked (`fr***1`); empty when nobody did. */
  referrer: z.string(),
  /** 0 not verified, 1 under review, 2 verified, 3 rejected. */
  realname_status: z.number().int(),
});
export type UserInfo = z.infer<typeof UserInfo>;

/** `GET /User/getUserInfo` answers the user inside `userInfo`. */
export const UserInfoAnswer = z.object({ userInfo: UserInfo });
export type UserInfoAnswer = z.infer<typeof UserInfoAnswer>;
