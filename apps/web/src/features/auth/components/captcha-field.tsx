import DotLoading from 'antd-mobile/es/components/dot-loading';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../../shared/ui/text-field.tsx';
import type { CaptchaState } from './use-captcha-state.ts';

/** The graphic code field: the picture comes from the API, a tap fetches a new one. */
export function CaptchaField({ state }: { state: CaptchaState }) {
  const { t } = useTranslation();
  return (
    <TextField
      label={t('auth.fields.captcha')}
      placeholder={t('auth.fields.captchaPlaceholder')}
      value={state.code}
      onChange={state.setCode}
      autoComplete="off"
      autoCapitalize="off"
      autoCorrect="off"
      spellCheck={false}
      maxLength={8}
      testId="captcha-input"
      hint={t('auth.fields.captchaHint')}
      trailing={
        <button
          type="button"
          className="captcha-image"
          onClick={state.refresh}
          aria-label={t('auth.fields.captchaRefresh')}
          data-testid="captcha-image"
        >
          {state.isLoading || !state.captcha ? (
            <DotLoading color="currentColor" />
          ) : (
            <img src={state.captcha.img} alt={t('auth.fields.captcha')} width={104} height={40} />
          )}
        </button>
      }
    />
  );
}
