/**
 * The longest password the server takes (`PASSWORD_MAX` of `@bourse/shared/api`, checked equal in
 * validate-password.test.ts). why: imported from there, the constant would bring every shared
 * request schema, and zod, into the password pages' first load; the fields need only the number.
 */
export const PASSWORD_MAX_LENGTH = 32;
