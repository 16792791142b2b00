import DotLoading from 'antd-mobile/es/components/dot-loading';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../../shared/ui/text-field.tsx';
import type { Captcha } from '../api/get-captcha.ts';

/** The graphic code field: the picture comes from the API, a tap fetches a new one. */
export function CaptchaField({
  value,
  onChange,
  captcha,
  isLoading,
  onRefresh,
}: {
  value: string;
  onChange: (value: string) => void;
  captcha: Captcha | undefined;
  isLoading: boolean;
  onRefresh: () => void;
}) {
  const { t } = useTranslation();
  return (
    <TextField
      label={t('auth.fields.captcha')}
      placeholder={t('auth.fields.captchaPlaceholder')}
      value={value}
      onChange={onChange}
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
          onClick={onRefresh}
          aria-label={t('auth.fields.captchaRefresh')}
          data-testid="captcha-image"
        >
          {isLoading || !captcha ? (
            <DotLoading color="currentColor" />
          ) : (
            <img src={captcha.img} alt={t('auth.fields.captcha')} width={104} height={40} />
          )}
        </button>
      }
    />
  );
}
