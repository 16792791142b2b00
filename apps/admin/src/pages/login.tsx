import { Alert, Button, Card, Form, Input, Space, Typography } from 'antd';
import { QRCodeSVG } from 'qrcode.react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router';
import { api } from '../api/client.ts';
import type { LoginStep, StaffView } from '../api/types.ts';
import { useSession } from '../app/session.tsx';

/** Password, then TOTP: enrolment (QR code, and a new password when required) or the current code. */
export function LoginPage() {
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const [step, setStep] = useState<LoginStep | null>(null);
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
  const finish = (result: { token: string; staff: StaffView }) => {
    session.signIn(result.token);
    navigate('/dashboard', { replace: true });
  };

  return (
    <div style={{ minHeight: '100vh', display: 'grid', placeItems: 'center', background: '#f3f5f8' }}>
      <Card style={{ width: 420 }} title={step?.step === 'enrol' ? t('login.enrolTitle') : t('login.title')}>
        {error && <Alert type="error" title={error} style={{ marginBottom: 16 }} showIcon />}
        {!step && (
          <Form
            layout="vertical"
            onFinish={(values: { username: string; password: string }) =>
              run(async () => setStep(await api<LoginStep>('POST', '/login', values)))
            }
          >
            <Form.Item name="username" label={t('login.username')} rules={[{ required: true }]}>
              <Input autoComplete="username" autoFocus />
            </Form.Item>
            <Form.Item name="password" label={t('login.password')} rules={[{ required: true }]}>
              <Input.Password autoComplete="current-password" />
            </Form.Item>
            <Button type="primary" htmlType="submit" loading={busy} block>
              {t('login.submit')}
            </Button>
          </Form>
        )}
        {step && (
          <Form
            layout="vertical"
            onFinish={(values: { code: string; newPassword?: string }) =>
              run(async () =>
                finish(
                  await api<{ token: string; staff: StaffView }>(
                    'POST',
                    step.step === 'enrol' ? '/totp/enrol' : '/totp/verify',
                    { ticket: step.ticket, code: values.code, newPassword: values.newPassword },
                  ),
                ),
              )
            }
          >
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
            {step.step === 'enrol' && step.mustChangePassword && (
              <Form.Item
                name="newPassword"
                label={t('login.newPassword')}
                extra={t('login.newPasswordHelp')}
                rules={[{ required: true, min: 8, max: 128 }]}
              >
                <Input.Password autoComplete="new-password" />
              </Form.Item>
            )}
            <Form.Item name="code" label={t('login.code')} rules={[{ required: true, pattern: /^\d{6}$/ }]}>
              <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} autoFocus />
            </Form.Item>
            <Space>
              <Button type="primary" htmlType="submit" loading={busy}>
                {t('login.verify')}
              </Button>
              <Button onClick={() => setStep(null)}>{t('login.back')}</Button>
            </Space>
          </Form>
        )}
      </Card>
    </div>
  );
}
