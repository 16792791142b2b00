/**
 * What the error text needs of a translation library: an i18next instance fits as it is, so the
 * package depends on neither app's set-up (each passes the instance its `useTranslation` gives).
 */
export interface Translator {
  t(key: string): string;
  exists(key: string): boolean;
}

export interface FieldErrorTextOptions {
  /** The text key shown when a message has no translation of its own ("check this field"). */
  fallbackKey: string;
}

/** Turns a field's validation message into the text under it; see {@link fieldErrorText}. */
export type FieldErrorText = (message: string | undefined, invalidText?: string) => string | undefined;

/**
 * The text of a field's validation message. Schemas of `@bourse/shared/api` report result keys
 * (`PARAM_MISSING`, `AMOUNT_INVALID`, …), shown through `form.errors.<KEY>`; a page's own
 * refinements may report full text keys (`wallet.withdraw.chooseAddress`). `invalidText` is the
 * field's own rule, shown instead of the generic PARAM_ERROR and of an untranslated message;
 * without it anything unknown reads as `fallbackKey`.
 */
export function fieldErrorText(i18n: Translator, options: FieldErrorTextOptions): FieldErrorText {
  return (message, invalidText) => {
    if (!message) return undefined;
    if (message === 'PARAM_ERROR' && invalidText) return invalidText;
    const key = message.includes('.') ? message : `form.errors.${message}`;
    if (i18n.exists(key)) return i18n.t(key);
    return invalidText ?? i18n.t(options.fallbackKey);
  };
}
