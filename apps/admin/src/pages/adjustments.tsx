import { useMutation } from '@tanstack/react-query';
import { Alert, App, Button, Card, Form, Input, Typography } from 'antd';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../api/client.ts';

interface AdjustValues {
  userId: string;
  asset: string;
  amount: string;
  reason: string;
}

function newKey(): string {
  return crypto.randomUUID().replaceAll('-', '');
}

/** A manual adjustment: a double-entry ledger movement with a reason, visible in the user's bills. */
export function AdjustmentsPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<AdjustValues>();
  // why: the key makes a double click or a retry post the adjustment once; a new one per success.
  const key = useRef(newKey());
  const adjust = useMutation({
    mutationFn: (values: AdjustValues) =>
      api<{ entryId: number; balance: string }>('POST', `/users/${values.userId}/adjust`, {
        asset: values.asset.toUpperCase(),
        amount: values.amount,
        reason: values.reason,
        key: key.current,
      }),
    onSuccess: (result) => {
      key.current = newKey();
      form.resetFields();
      message.success(t('adjust.done', { balance: result.balance }));
    },
    onError: (error) => message.error(error.message),
  });
  return (
    <Card title={t('adjust.title')} style={{ maxWidth: 560 }}>
      <Alert type="info" title={t('adjust.help')} style={{ marginBottom: 16 }} />
      <Form form={form} layout="vertical" onFinish={(values) => adjust.mutate(values)}>
        <Form.Item
          name="userId"
          label={t('adjust.userId')}
          rules={[{ required: true, pattern: /^\d{1,18}$/ }]}
        >
          <Input inputMode="numeric" />
        </Form.Item>
        <Form.Item
          name="asset"
          label={t('adjust.asset')}
          rules={[{ required: true, pattern: /^[A-Za-z0-9]{1,16}$/ }]}
        >
          <Input placeholder="USDT" />
        </Form.Item>
        <Form.Item
          name="amount"
          label={t('adjust.amount')}
          rules={[{ required: true, pattern: /^-?\d+(\.\d{1,8})?$/ }]}
        >
          <Input inputMode="decimal" />
        </Form.Item>
        <Form.Item name="reason" label={t('adjust.reason')} rules={[{ required: true, max: 500 }]}>
          <Input.TextArea rows={3} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={adjust.isPending}>
          {t('adjust.submit')}
        </Button>
        <Typography.Paragraph type="secondary" style={{ marginTop: 12 }} />
      </Form>
    </Card>
  );
}
