import { type InputHTMLAttributes, type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { IconEye, IconEyeOff } from './icons.tsx';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'> {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** Something at the end of the field, e.g. the captcha image. */
  trailing?: ReactNode;
  /** Shown under the field in a muted tone. */
  hint?: ReactNode;
  testId?: string;
}

/** A labelled input sized for thumbs (≥ 44 px). Password fields get a show/hide toggle. */
export function TextField({
  label,
  value,
  onChange,
  trailing,
  hint,
  testId,
  type,
  id,
  ...rest
}: TextFieldProps) {
  const { t } = useTranslation();
  const autoId = useId();
  const inputId = id ?? autoId;
  const [isRevealed, setIsRevealed] = useState(false);
  const isPassword = type === 'password';
  return (
    <div className="field">
      <label className="field-label" htmlFor={inputId}>
        {label}
      </label>
      <div className="field-control">
        <input
          id={inputId}
          className="field-input"
          type={isPassword && isRevealed ? 'text' : type}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          data-testid={testId}
          {...rest}
        />
        {isPassword && (
          <button
            type="button"
            className="icon-button field-toggle"
            aria-label={isRevealed ? t('common.hidePassword') : t('common.showPassword')}
            aria-pressed={isRevealed}
            onClick={() => setIsRevealed((v) => !v)}
          >
            {isRevealed ? <IconEye /> : <IconEyeOff />}
          </button>
        )}
        {trailing}
      </div>
      {hint && <p className="field-hint">{hint}</p>}
    </div>
  );
}
