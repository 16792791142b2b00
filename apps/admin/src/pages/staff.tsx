import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Form, Input, Select, Space, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../api/client.ts';
import type { StaffRole, StaffView } from '../api/types.ts';
import { formatTime } from '../app/format.ts';
import { useSession } from '../app/session.tsx';

const ROLES: StaffRole[] = ['owner', 'finance', 'compliance', 'support', 'content'];

export function StaffPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const session = useSession();
  const client = useQueryClient();
  const [form] = Form.useForm<{ username: string; password: string; role: StaffRole }>();
  const list = useQuery({ queryKey: ['staff'], queryFn: () => api<StaffView[]>('GET', '/staff') });
  const onError = (error: Error) => message.error(error.message);
  const create = useMutation({
    mutationFn: (values: { username: string; password: string; role: StaffRole }) =>
      api('POST', '/staff', values),
    onSuccess: () => {
      form.resetFields();
      void client.invalidateQueries({ queryKey: ['staff'] });
      message.success(t('common.saved'));
    },
    onError,
  });
  const setStatus = useMutation({
    mutationFn: (input: { id: number; disabled: boolean }) =>
      api('POST', `/staff/${input.id}/status`, { disabled: input.disabled }),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['staff'] }),
    onError,
  });
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Card title={t('staff.create')}>
        <Form form={form} layout="inline" onFinish={(values) => create.mutate(values)}>
          <Form.Item
            name="username"
            label={t('staff.username')}
            rules={[{ required: true, pattern: /^[A-Za-z0-9_.-]{3,32}$/ }]}
          >
            <Input autoComplete="off" />
          </Form.Item>
          <Form.Item
            name="password"
            label={t('staff.password')}
            rules={[{ required: true, min: 8, max: 128 }]}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
          <Form.Item name="role" label={t('staff.role')} rules={[{ required: true }]}>
            <Select
              style={{ width: 160 }}
              options={ROLES.map((role) => ({ value: role, label: t(`staff.roles.${role}`) }))}
            />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={create.isPending}>
            {t('common.submit')}
          </Button>
        </Form>
      </Card>
      <Table<StaffView>
        rowKey="id"
        loading={list.isLoading}
        dataSource={list.data ?? []}
        columns={[
          { title: '#', dataIndex: 'id' },
          { title: t('staff.username'), dataIndex: 'username' },
          { title: t('staff.role'), render: (_, row) => t(`staff.roles.${row.role}`) },
          {
            title: t('staff.status'),
            render: (_, row) => (
              <Tag color={row.status === 'active' ? 'green' : 'red'}>{t(`staff.${row.status}`)}</Tag>
            ),
          },
          {
            title: t('staff.totp'),
            render: (_, row) => (row.totpEnabled ? t('staff.enrolled') : t('staff.notEnrolled')),
          },
          { title: t('staff.createdAt'), render: (_, row) => formatTime(row.createdAt) },
          {
            title: '',
            render: (_, row) =>
              row.id !== session.me?.id && (
                <Button
                  size="small"
                  danger={row.status === 'active'}
                  onClick={() => setStatus.mutate({ id: row.id, disabled: row.status === 'active' })}
                >
                  {row.status === 'active' ? t('staff.disable') : t('staff.enable')}
                </Button>
              ),
          },
        ]}
      />
    </Space>
  );
}
