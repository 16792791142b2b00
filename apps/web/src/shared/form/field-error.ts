import { fieldErrorText } from '@bourse/forms';
import { useTranslation } from 'react-i18next';

/**
 * The text of a field's validation message, in the app's language (see `fieldErrorText` of
 * `@bourse/forms`): result keys read through `form.errors.<KEY>`, a page's own refinements may
 * report full text keys (`wallet.withdraw.chooseAddress`), anything unknown reads as the generic
 * "check this field".
 */
export function useFieldErrorText(): (message: string | undefined) => string | undefined {
  const { i18n } = useTranslation();
  const text = fieldErrorText(i18n, { fallbackKey: 'form.errors.invalid' });
  return (message) => text(message);
}
