import { CreateStaffBody, STAFF_ROLES, type StaffAccount, type StaffRole } from '@bourse/shared/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Input, Select, Space, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormField, SchemaFormView, useSchemaForm } from '../../../shared/form.tsx';
import { formatTime } from '../../../shared/format.ts';
import { useSession } from '../../../shared/session.tsx';
import { createStaff } from '../api/create-staff.ts';
import { listStaff } from '../api/list-staff.ts';
import { setStaffStatus } from '../api/set-staff-status.ts';

const StaffFields = CreateStaffBody.omit({ token: true });
const EMPTY = { username: '', password: '', role: undefined };

export function StaffPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const session = useSession();
  const client = useQueryClient();
  const form = useSchemaForm(StaffFields, { defaultValues: EMPTY });
  const list = useQuery({ queryKey: ['staff'], queryFn: listStaff });
  const onError = (error: Error) => message.error(error.message);
  const create = useMutation({
    mutationFn: (values: { username: string; password: string; role: StaffRole }) => createStaff(values),
    onSuccess: () => {
      form.reset(EMPTY);
      void client.invalidateQueries({ queryKey: ['staff'] });
      message.success(t('common.saved'));
    },
    onError,
  });
  const setStatus = useMutation({
    mutationFn: (input: { id: number; disabled: boolean }) => setStaffStatus(input.id, input.disabled),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['staff'] }),
    onError,
  });
  const { control } = form;
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Card title={t('staff.create')}>
        <SchemaFormView layout="inline" onSubmit={form.handleSubmit((values) => create.mutate(values))}>
          <FormField
            control={control}
            name="username"
            label={t('staff.username')}
            invalidText={t('staff.usernameRule')}
          >
            <Input autoComplete="off" />
          </FormField>
          <FormField
            control={control}
            name="password"
            label={t('staff.password')}
            invalidText={t('staff.passwordRule')}
          >
            <Input.Password autoComplete="new-password" />
          </FormField>
          <FormField control={control} name="role" label={t('staff.role')}>
            <Select
              style={{ width: 160 }}
              options={STAFF_ROLES.map((role) => ({ value: role, label: t(`staff.roles.${role}`) }))}
            />
          </FormField>
          <Button type="primary" htmlType="submit" loading={create.isPending}>
            {t('common.submit')}
          </Button>
        </SchemaFormView>
      </Card>
      <Table<StaffAccount>
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
