import { useTranslation } from 'react-i18next';

/**
 * The text of a field's validation message. Schemas of `@bourse/shared/api` report result keys
 * (`PARAM_MISSING`, `AMOUNT_INVALID`, …), shown through `form.errors.<KEY>`; a page's own
 * refinements report full text keys (`wallet.withdraw.chooseAddress`). Anything unknown reads as
 * the generic "check this field".
 */
export function useFieldErrorText(): (message: string | undefined) => string | undefined {
  const { t, i18n } = useTranslation();
  return (message) => {
    if (!message) return undefined;
    const key = message.includes('.') ? message : `form.errors.${message}`;
    return i18n.exists(key) ? t(key) : t('form.errors.invalid');
  };
}
