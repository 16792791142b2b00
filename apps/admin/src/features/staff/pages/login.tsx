import { StaffLoginBody, type StaffLoginStep, TotpBody } from '@bourse/shared/api';
import { Alert, Button, Card, Input, Space, Typography } from 'antd';
import { QRCodeSVG } from 'qrcode.react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router';
import { FormField, SchemaFormView, useSchemaForm } from '../../../shared/form.tsx';
import { useSession } from '../../../shared/session.tsx';
import { signIn } from '../api/sign-in.ts';
import { verifyCode } from '../api/verify-code.ts';

// why: the ticket comes from step 1, not from a field; a new password is asked for only when required.
const CodeFields = TotpBody.omit({ ticket: true });
const CodeAndPasswordFields = CodeFields.required({ newPassword: true });

/** Password, then TOTP: enrolment (QR code, and a new password when required) or the current code. */
export function LoginPage() {
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const [step, setStep] = useState<StaffLoginStep | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (session.isSignedIn) return <Navigate to="/dashboard" replace />;

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div style={{ minHeight: '100vh', display: 'grid', placeItems: 'center', background: '#f3f5f8' }}>
      <Card style={{ width: 420 }} title={step?.step === 'enrol' ? t('login.enrolTitle') : t('login.title')}>
        {error && <Alert type="error" title={error} style={{ marginBottom: 16 }} showIcon />}
        {!step && (
          <PasswordStep busy={busy} onSubmit={(values) => run(async () => setStep(await signIn(values)))} />
        )}
        {step && (
          <CodeStep
            key={step.ticket}
            step={step}
            busy={busy}
            onBack={() => setStep(null)}
            onSubmit={(values) =>
              run(async () => {
                const result = await verifyCode(step.step, { ticket: step.ticket, ...values });
                session.signIn(result.token);
                navigate('/dashboard', { replace: true });
              })
            }
          />
        )}
      </Card>
    </div>
  );
}

function PasswordStep(props: {
  busy: boolean;
  onSubmit: (values: { username: string; password: string }) => Promise<void>;
}) {
  const { t } = useTranslation();
  const form = useSchemaForm(StaffLoginBody, { defaultValues: { username: '', password: '' } });
  return (
    <SchemaFormView onSubmit={form.handleSubmit(props.onSubmit)}>
      <FormField control={form.control} name="username" label={t('login.username')}>
        <Input autoComplete="username" autoFocus />
      </FormField>
      <FormField control={form.control} name="password" label={t('login.password')}>
        <Input.Password autoComplete="current-password" />
      </FormField>
      <Button type="primary" htmlType="submit" loading={props.busy} block>
        {t('login.submit')}
      </Button>
    </SchemaFormView>
  );
}

function CodeStep(props: {
  step: StaffLoginStep;
  busy: boolean;
  onBack: () => void;
  onSubmit: (values: { code: string; newPassword?: string }) => Promise<void>;
}) {
  const { t } = useTranslation();
  const { step } = props;
  const needsPassword = step.step === 'enrol' && step.mustChangePassword;
  const form = useSchemaForm(needsPassword ? CodeAndPasswordFields : CodeFields, {
    defaultValues: { code: '', newPassword: needsPassword ? '' : undefined },
  });
  return (
    <SchemaFormView onSubmit={form.handleSubmit(props.onSubmit)}>
      {step.step === 'enrol' && (
        <Space orientation="vertical" style={{ width: '100%', marginBottom: 16 }}>
          <Typography.Paragraph>{t('login.enrolHelp')}</Typography.Paragraph>
          <div style={{ display: 'grid', placeItems: 'center' }}>
            <QRCodeSVG value={step.otpauthUrl} size={180} marginSize={2} />
          </div>
          <Typography.Text>
            {t('login.secret')}:{' '}
            <Typography.Text code copyable>
              {step.secret}
            </Typography.Text>
          </Typography.Text>
        </Space>
      )}
      {needsPassword && (
        <FormField
          control={form.control}
          name="newPassword"
          label={t('login.newPassword')}
          extra={t('login.newPasswordHelp')}
          invalidText={t('login.passwordRule')}
        >
          <Input.Password autoComplete="new-password" />
        </FormField>
      )}
      <FormField control={form.control} name="code" label={t('login.code')}>
        <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} autoFocus />
      </FormField>
      <Space>
        <Button type="primary" htmlType="submit" loading={props.busy}>
          {t('login.verify')}
        </Button>
        <Button onClick={props.onBack}>{t('login.back')}</Button>
      </Space>
    </SchemaFormView>
  );
}
