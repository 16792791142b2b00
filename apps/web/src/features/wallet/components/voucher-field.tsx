import { type ChangeEvent, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { IconImage } from '../../../shared/ui/icons.tsx';

/**
 * The transfer voucher: a picture picker (camera or gallery on a phone) showing the chosen image.
 * The file input is the labelled control; the preview is decoration.
 */
export function VoucherField({
  value,
  onChange,
  onBlur,
  error,
  testId,
}: {
  value: File | null | undefined;
  onChange: (file: File | null) => void;
  onBlur?: () => void;
  error?: string;
  testId?: string;
}) {
  const { t } = useTranslation();
  const inputId = useId();
  const errorId = `${inputId}-error`;
  const [preview, setPreview] = useState<string | null>(null);
  // why: read as a data URL, which the Content-Security-Policy allows for images (blob: it does not).
  useEffect(() => {
    setPreview(null);
    if (!value) return;
    const reader = new FileReader();
    reader.onload = () => setPreview(typeof reader.result === 'string' ? reader.result : null);
    reader.readAsDataURL(value);
    return () => reader.abort();
  }, [value]);

  function handleChange(event: ChangeEvent<HTMLInputElement>) {
    onChange(event.target.files?.[0] ?? null);
    onBlur?.();
  }

  return (
    <div className={error ? 'field has-error' : 'field'}>
      <span className="field-label">{t('wallet.deposit.voucher')}</span>
      <label htmlFor={inputId} className="voucher-drop">
        {preview ? (
          <img className="voucher-preview" src={preview} alt="" />
        ) : (
          <IconImage className="voucher-icon" />
        )}
        <span className="voucher-text">
          {value ? t('wallet.deposit.voucherChange') : t('wallet.deposit.voucherChoose')}
        </span>
        <input
          id={inputId}
          className="voucher-input"
          type="file"
          accept="image/png,image/jpeg,image/webp,image/gif"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={handleChange}
          data-testid={testId}
        />
      </label>
      <p className="field-hint">{t('wallet.deposit.voucherHint')}</p>
      {error && (
        <p className="field-error" id={errorId} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
