/** Bounds the server applies to login and withdrawal passwords. */
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 32;

/**
 * The first problem with a new password and its confirmation, as a message key, or null.
 * Checked in the order the user fills the form in.
 */
export function findNewPasswordProblem(password: string, confirmation: string): string | null {
  if (!password) return 'security.validation.newRequired';
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) return 'security.validation.length';
  if (!confirmation) return 'security.validation.confirmRequired';
  if (password !== confirmation) return 'auth.validation.passwordsInconsistent';
  return null;
}
