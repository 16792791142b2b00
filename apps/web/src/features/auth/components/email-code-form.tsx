import Button from 'antd-mobile/es/components/button';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../../shared/ui/text-field.tsx';
import { showToast } from '../../../shared/ui/toast.ts';
import { sendEmailCode } from '../api/send-email-code.ts';
import { CaptchaField } from './captcha-field.tsx';
import { useCaptchaState } from './use-captcha-state.ts';

const EMAIL_RE = /^[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9.-]{1,190}\.[A-Za-z]{2,24}$/;

/**
 * E-mail, graphic code and the mailed code, with the resend countdown: "Send code" asks the server
 * (`sendPath`) to mail a code once the graphic code is in, then counts down before it may again.
 */
export function EmailCodeFields({
  sendPath,
  email,
  onEmail,
  code,
  onCode,
  testIdPrefix,
}: {
  sendPath: '/Login/sendresetcode' | '/user/sendemailcode';
  email: string;
  onEmail: (value: string) => void;
  code: string;
  onCode: (value: string) => void;
  testIdPrefix: string;
}) {
  const { t } = useTranslation();
  const captcha = useCaptchaState(true);
  const [secondsLeft, setSecondsLeft] = useState(0);
  const [isSending, setIsSending] = useState(false);

  useEffect(() => {
    if (secondsLeft <= 0) return;
    const timer = setTimeout(() => setSecondsLeft((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [secondsLeft]);

  async function send() {
    if (!EMAIL_RE.test(email.trim())) return void showToast(t('emailCode.emailInvalid'));
    if (!captcha.payload?.code) return void showToast(t('auth.validation.captchaRequired'));
    setIsSending(true);
    try {
      const body = await sendEmailCode(sendPath, {
        email: email.trim(),
        vcode: captcha.payload.code,
        key: captcha.payload.key,
      });
      showToast(body.msg, 'success');
      setSecondsLeft(body.data.resend_after);
    } catch {
      // the client already showed the server's message; a graphic code is good once
    } finally {
      captcha.refresh();
      setIsSending(false);
    }
  }

  return (
    <>
      <TextField
        label={t('emailCode.email')}
        placeholder={t('emailCode.emailPlaceholder')}
        value={email}
        onChange={onEmail}
        type="email"
        autoComplete="email"
        autoCapitalize="off"
        maxLength={255}
        testId={`${testIdPrefix}-email`}
      />
      <CaptchaField state={captcha} />
      <TextField
        label={t('emailCode.code')}
        placeholder={t('emailCode.codePlaceholder')}
        value={code}
        onChange={onCode}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        testId={`${testIdPrefix}-code`}
        trailing={
          <Button
            size="small"
            fill="none"
            color="primary"
            disabled={secondsLeft > 0 || isSending}
            loading={isSending}
            onClick={send}
            data-testid={`${testIdPrefix}-send`}
          >
            {secondsLeft > 0 ? t('emailCode.resendIn', { seconds: secondsLeft }) : t('emailCode.send')}
          </Button>
        }
      />
    </>
  );
}
