import './two-factor-sheet.css';
import Button from 'antd-mobile/es/components/button';
import Popup from 'antd-mobile/es/components/popup';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from './text-field.tsx';

/** A current authenticator code (6 digits) or a backup code (10 characters, dashes and spaces aside). */
function isCodeShaped(code: string): boolean {
  const bare = code.replace(/[\s-]/g, '');
  return /^\d{6}$/.test(bare) || /^[A-Za-z0-9]{10}$/.test(bare);
}

/**
 * The second-factor step of an action the server guards with two-factor codes (it answers
 * TOTP_REQUIRED without one): a bottom sheet asking for the authenticator's 6-digit code or a
 * backup code. Six digits send at once; the sheet stays busy, and cannot send twice, until the
 * caller's request settles. `error` is the server's translated message for a refused code.
 */
export function TwoFactorSheet({
  isOpen,
  isBusy,
  error,
  onSubmit,
  onClose,
  testId,
}: {
  isOpen: boolean;
  isBusy: boolean;
  error?: string;
  onSubmit: (code: string) => void;
  onClose: () => void;
  testId: string;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<string | undefined>();

  // why: each opening is a new attempt; a refused code is cleared so the next one is typed fresh.
  useEffect(() => {
    if (isOpen) setCode('');
    setProblem(undefined);
  }, [isOpen]);
  useEffect(() => {
    if (error) {
      setCode('');
      setProblem(error);
      inputRef.current?.focus();
    }
  }, [error]);

  function send(value: string) {
    if (isBusy) return;
    const trimmed = value.trim();
    if (!trimmed) return setProblem(t('common.secondFactor.required'));
    if (!isCodeShaped(trimmed)) return setProblem(t('common.secondFactor.invalid'));
    setProblem(undefined);
    onSubmit(trimmed);
  }

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    // why: the sheet is portalled, but React bubbles its submit to a form around the caller.
    event.stopPropagation();
    send(code);
  }

  return (
    <Popup
      visible={isOpen}
      onMaskClick={isBusy ? undefined : onClose}
      afterShow={() => inputRef.current?.focus()}
    >
      <form
        className="two-factor-sheet"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        onSubmit={handleSubmit}
        noValidate
        data-testid={testId}
      >
        <h2 className="two-factor-sheet-title" id={titleId}>
          {t('common.secondFactor.title')}
        </h2>
        <p className="two-factor-sheet-hint">{t('common.secondFactor.hint')}</p>
        <TextField
          ref={inputRef}
          label={t('common.secondFactor.label')}
          placeholder={t('common.secondFactor.placeholder')}
          value={code}
          onChange={(next) => {
            setCode(next);
            setProblem(undefined);
            // why: the authenticator's code is complete at six digits; sending it spares a tap.
            if (/^\d{6}$/.test(next) && !isBusy) send(next);
          }}
          autoComplete="one-time-code"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={16}
          disabled={isBusy}
          error={problem}
          testId={`${testId}-code`}
        />
        <div className="two-factor-sheet-actions">
          <Button block size="large" fill="outline" onClick={onClose} disabled={isBusy}>
            {t('common.cancel')}
          </Button>
          <Button
            block
            type="submit"
            size="large"
            color="primary"
            loading={isBusy}
            disabled={isBusy}
            data-testid={`${testId}-submit`}
          >
            {t('common.secondFactor.submit')}
          </Button>
        </div>
      </form>
    </Popup>
  );
}
