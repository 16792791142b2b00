import { type InputHTMLAttributes, type ReactNode, type Ref, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { IconEye, IconEyeOff } from './icons.tsx';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'> {
  label: string;
  value: string;
  ref?: Ref<HTMLInputElement>;
  onChange: (value: string) => void;
  /** Something at the end of the field, e.g. the captcha image. */
  trailing?: ReactNode;
  /** Shown under the field in a muted tone. */
  hint?: ReactNode;
  /** What is wrong with the value, shown under the field and announced with it. */
  error?: string;
  testId?: string;
}

/** A labelled input sized for thumbs (≥ 44 px). Password fields get a show/hide toggle. */
export function TextField({
  label,
  value,
  onChange,
  trailing,
  hint,
  error,
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
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const describedBy = [hint ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ');
  return (
    <div className={error ? 'field has-error' : 'field'}>
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
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy || undefined}
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
      {hint && (
        <p className="field-hint" id={hintId}>
          {hint}
        </p>
      )}
      {error && (
        <p className="field-error" id={errorId} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
