/** The accounts' limits (see auth.ts), in a module without zod. */

/** Usernames: 4–20 letters, digits or underscores, or an e-mail address. */
export const USERNAME_RE =
  /^(?:[A-Za-z0-9_]{4,20}|[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9.-]{1,190}\.[A-Za-z]{2,24})$/;
/** Phone numbers: optional leading +, 6–15 digits. */
export const PHONE_RE = /^\+?\d{6,15}$/;
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 32;
