import {
  type AdminTrialGrant,
  GrantTrialBody,
  TrialGrantListQuery,
  type TrialPlan,
} from '@bourse/shared/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Input, Modal, Select, Space, Table, Tag } from 'antd';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { FormField, SchemaFormView, useSchemaForm } from '../../../shared/form.tsx';
import { formatTime, trimDecimal } from '../../../shared/format.ts';
import { grantTrial } from '../api/grant-trial.ts';
import { listTrialGrants } from '../api/list-trial-grants.ts';
import { blankAsAbsent, Pager } from './common.tsx';

const GRANTS_KEY = ['delivery', 'trial-grants'];
const GrantFilterFields = z.object({ userId: blankAsAbsent(TrialGrantListQuery.shape.userId) });

/** Trial-money grants, newest first, optionally one user's. */
export function GrantsCard() {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<{ userId?: string; page: number }>({ page: 1 });
  const grants = useQuery({
    queryKey: [...GRANTS_KEY, filter],
    queryFn: () => listTrialGrants(filter),
  });
  const form = useSchemaForm(GrantFilterFields, { defaultValues: { userId: '' } });
  return (
    <Card title={t('delivery.grants')}>
      <Space orientation="vertical" style={{ width: '100%' }}>
        <SchemaFormView
          layout="inline"
          onSubmit={form.handleSubmit(({ userId }) => setFilter({ userId, page: 1 }))}
        >
          <FormField control={form.control} name="userId" label={t('delivery.userId')}>
            <Input allowClear inputMode="numeric" style={{ width: 160 }} />
          </FormField>
          <Button htmlType="submit">{t('delivery.filter')}</Button>
        </SchemaFormView>
        {grants.isError && <Alert type="error" title={grants.error.message} />}
        <Table<AdminTrialGrant>
          rowKey="id"
          loading={grants.isLoading}
          dataSource={grants.data?.list ?? []}
          pagination={false}
          locale={{ emptyText: t('common.empty') }}
          columns={[
            { title: '#', dataIndex: 'id' },
            { title: t('delivery.user'), render: (_, row) => `${row.username} #${row.userId}` },
            { title: t('delivery.plan'), dataIndex: 'name' },
            { title: t('delivery.amount'), dataIndex: 'amount' },
            { title: t('delivery.remaining'), dataIndex: 'remaining' },
            { title: t('delivery.profitCap'), dataIndex: 'profitCap' },
            { title: t('delivery.profitPaid'), dataIndex: 'profitPaid' },
            { title: t('delivery.expiresAt'), render: (_, row) => formatTime(row.expiresAt) },
            {
              title: t('delivery.status'),
              render: (_, row) => (
                <Tag color={row.status === 'active' ? 'green' : 'default'}>
                  {t(`delivery.grantStatuses.${row.status}`)}
                </Tag>
              ),
            },
            { title: t('delivery.grantedBy'), dataIndex: 'grantedBy' },
            { title: t('delivery.createdAt'), render: (_, row) => formatTime(row.createdAt) },
            { title: t('delivery.profitLocked'), dataIndex: 'profitLocked' },
            {
              title: t('delivery.turnover'),
              render: (_, row) => `${trimDecimal(row.turnoverDone)} / ${trimDecimal(row.turnoverRequired)}`,
            },
          ]}
        />
        <Pager
          page={filter.page}
          hasMore={grants.data?.hasMore ?? false}
          onChange={(page) => setFilter({ ...filter, page })}
        />
      </Space>
    </Card>
  );
}

/** Grants an active plan's trial money to a user. */
export function GrantForm({ plans, onClose }: { plans: TrialPlan[]; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const formId = useId();
  // why: one key per grant the staff member means to make; a retry after a lost answer sends the
  // same key, so the user is granted once.
  const [key] = useState(() => crypto.randomUUID());
  const form = useSchemaForm(GrantTrialBody, { defaultValues: { userId: '', planId: undefined } });
  const grant = useMutation({
    mutationFn: (values: z.output<typeof GrantTrialBody>) => grantTrial(values, key),
    onSuccess: (granted) => {
      void client.invalidateQueries({ queryKey: GRANTS_KEY });
      message.success(t('delivery.granted', { amount: granted.amount, user: granted.username }));
      onClose();
    },
    onError: (error) => message.error(error.message),
  });
  const { control } = form;
  return (
    <Modal
      open
      title={t('delivery.grantToUser')}
      okText={t('common.submit')}
      cancelText={t('common.cancel')}
      okButtonProps={{ htmlType: 'submit', form: formId, loading: grant.isPending }}
      onCancel={onClose}
    >
      <SchemaFormView id={formId} onSubmit={form.handleSubmit((values) => grant.mutate(values))}>
        <FormField control={control} name="userId" label={t('delivery.userId')}>
          <Input inputMode="numeric" />
        </FormField>
        <FormField control={control} name="planId" label={t('delivery.plan')}>
          <Select
            options={plans
              .filter((plan) => plan.active)
              .map((plan) => ({
                value: plan.id,
                label: `${plan.name} · ${trimDecimal(plan.amount)} USDT · ${t(`delivery.triggers.${plan.trigger}`)}`,
              }))}
          />
        </FormField>
      </SchemaFormView>
    </Modal>
  );
}
