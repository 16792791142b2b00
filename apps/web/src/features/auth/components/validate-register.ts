/** What the register form holds when it is sent. */
export interface RegisterForm {
  /** Username or e-mail (register mode 1), or mobile number (mode 2). */
  account: string;
  password: string;
  confirmation: string;
  /** The graphic code, or null when the captcha is off. */
  captcha: string | null;
  /** Whether the terms box is ticked, or null while no terms are in force (no box). */
  termsAccepted?: boolean | null;
}

/**
 * The first problem of the register form as a message key, or null. Spec §5: the login form's two
 * checks (username, then password; the same message in both register modes), then the
 * confirmation, then the graphic code when it is on, then the terms box when there is one.
 */
export function findRegisterProblem(form: RegisterForm): string | null {
  if (!form.account.trim()) return 'auth.validation.usernameRequired';
  if (!form.password) return 'auth.validation.passwordRequired';
  if (form.password !== form.confirmation) return 'auth.validation.passwordsInconsistent';
  if (form.captcha !== null && !form.captcha.trim()) return 'auth.validation.captchaRequired';
  if (form.termsAccepted === false) return 'terms.required';
  return null;
}
