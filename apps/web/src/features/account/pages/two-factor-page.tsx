import '../components/account.css';
import Button from 'antd-mobile/es/components/button';
import { QRCodeSVG } from 'qrcode.react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { copyText } from '../../../shared/copy-text.ts';
import { ListSkeleton } from '../../../shared/ui/list-skeleton.tsx';
import { Page } from '../../../shared/ui/page.tsx';
import { ErrorState } from '../../../shared/ui/state-block.tsx';
import { SubmitButton } from '../../../shared/ui/submit-button.tsx';
import { TextField } from '../../../shared/ui/text-field.tsx';
import { showToast } from '../../../shared/ui/toast.ts';
import { useBack } from '../../../shared/ui/use-back.ts';
import { useSecurity, useTotpDisable, useTotpEnable, useTotpSetup } from '../api/account.ts';

/**
 * `/Index/totp`: two-factor codes. Off: scan the QR code (or type the secret) into an
 * authenticator app, confirm with a code, and keep the one-time backup codes shown once. On: turn
 * them off with a current code or a backup code.
 */
export default function TwoFactorPage() {
  const { t } = useTranslation();
  const goBack = useBack();
  const security = useSecurity();
  const setup = useTotpSetup();
  const enable = useTotpEnable();
  const disable = useTotpDisable();
  const [code, setCode] = useState('');
  const [backupCodes, setBackupCodes] = useState<string[]>();

  function confirm(event: FormEvent) {
    event.preventDefault();
    if (!code.trim()) return void showToast(t('twoFactor.codeRequired'));
    const isOn = security.data?.totp_enabled;
    if (isOn) {
      disable.mutate(code.trim(), {
        onSuccess: (body) => {
          showToast(body.msg, 'success');
          setCode('');
          goBack();
        },
      });
    } else {
      enable.mutate(code.trim(), {
        onSuccess: (body) => {
          showToast(body.msg, 'success');
          setCode('');
          setBackupCodes(body.data.backup_codes);
        },
      });
    }
  }

  async function copyCodes(codes: string[]) {
    const isCopied = await copyText(codes.join('\n'));
    showToast(t(isCopied ? 'common.copied' : 'common.copyFailed'), isCopied ? 'success' : 'fail');
  }

  const codeField = (
    <TextField
      label={t('twoFactor.code')}
      placeholder={t('twoFactor.codePlaceholder')}
      value={code}
      onChange={setCode}
      inputMode="text"
      autoComplete="one-time-code"
      maxLength={16}
      testId="totp-code"
    />
  );

  return (
    <Page title={t('twoFactor.title')}>
      {security.isPending ? (
        <ListSkeleton rows={3} />
      ) : security.isError ? (
        <ErrorState message={security.error.message} onRetry={() => security.refetch()} />
      ) : backupCodes ? (
        <section className="account-form" data-testid="totp-backup-codes">
          <p className="note">{t('twoFactor.backupNote')}</p>
          <div className="backup-codes">
            {backupCodes.map((c) => (
              <span key={c}>{c}</span>
            ))}
          </div>
          <Button
            block
            size="large"
            color="primary"
            className="form-actions"
            onClick={() => copyCodes(backupCodes)}
            data-testid="totp-copy-codes"
          >
            {t('twoFactor.copyCodes')}
          </Button>
        </section>
      ) : security.data.totp_enabled ? (
        <form className="account-form" onSubmit={confirm} noValidate>
          <p className="note" data-testid="totp-on">
            {t('twoFactor.onNote', { left: security.data.backup_codes_left })}
          </p>
          {codeField}
          <SubmitButton isBusy={disable.isPending} testId="totp-disable" className="form-actions">
            {t('twoFactor.disable')}
          </SubmitButton>
        </form>
      ) : !setup.data ? (
        <section className="account-form">
          <p className="note">{t('twoFactor.offNote')}</p>
          <Button
            block
            size="large"
            color="primary"
            className="form-actions"
            loading={setup.isPending}
            onClick={() => setup.mutate()}
            data-testid="totp-start"
          >
            {t('twoFactor.start')}
          </Button>
        </section>
      ) : (
        <form className="account-form" onSubmit={confirm} noValidate>
          <p className="note">{t('twoFactor.scan')}</p>
          <div className="totp-qr">
            <QRCodeSVG value={setup.data.data.otpauth_url} size={176} />
          </div>
          <p className="totp-secret" data-testid="totp-secret">
            {setup.data.data.secret}
          </p>
          {codeField}
          <SubmitButton isBusy={enable.isPending} testId="totp-enable" className="form-actions">
            {t('twoFactor.enable')}
          </SubmitButton>
        </form>
      )}
    </Page>
  );
}
