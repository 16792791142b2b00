import { TRIAL_TRIGGERS, type TrialPlan, TrialPlanBody } from '@bourse/shared/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Input, InputNumber, Modal, Select, Space, Switch, Table, Tag } from 'antd';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { FormField, SchemaFormView, useSchemaForm } from '../../../shared/form.tsx';
import { formatTime, trimDecimal } from '../../../shared/format.ts';
import { listTrialPlans } from '../api/list-trial-plans.ts';
import { saveTrialPlan } from '../api/save-trial-plan.ts';
import { GrantForm, GrantsCard } from './trial-grants.tsx';
import { TrialSettingsCard } from './trial-settings.tsx';

const PLANS_KEY = ['delivery', 'trial-plans'];

/** Trial-money plans (sign-up and campaign) and the grants made from them. */
export function TrialTab({ canManage }: { canManage: boolean }) {
  const { t } = useTranslation();
  const plans = useQuery({ queryKey: PLANS_KEY, queryFn: listTrialPlans });
  const [editing, setEditing] = useState<{ plan?: TrialPlan } | null>(null);
  const [granting, setGranting] = useState(false);
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Card
        title={t('delivery.plans')}
        extra={
          canManage && (
            <Space>
              <Button onClick={() => setEditing({})}>{t('delivery.newPlan')}</Button>
              <Button type="primary" onClick={() => setGranting(true)}>
                {t('delivery.grantToUser')}
              </Button>
            </Space>
          )
        }
      >
        {plans.isError && <Alert type="error" title={plans.error.message} />}
        <Table<TrialPlan>
          rowKey="id"
          loading={plans.isLoading}
          dataSource={plans.data ?? []}
          pagination={false}
          locale={{ emptyText: t('common.empty') }}
          columns={[
            { title: '#', dataIndex: 'id' },
            { title: t('delivery.name'), dataIndex: 'name' },
            { title: t('delivery.amount'), dataIndex: 'amount' },
            { title: t('delivery.validityDays'), dataIndex: 'validityDays' },
            { title: t('delivery.profitCapPercent'), render: (_, row) => `${row.profitCapPercent}%` },
            { title: t('delivery.trigger'), render: (_, row) => t(`delivery.triggers.${row.trigger}`) },
            {
              title: t('delivery.active'),
              render: (_, row) => (
                <Tag color={row.active ? 'green' : 'default'}>
                  {row.active ? t('delivery.yes') : t('delivery.no')}
                </Tag>
              ),
            },
            { title: t('delivery.updatedAt'), render: (_, row) => formatTime(row.updatedAt) },
            {
              title: '',
              render: (_, row) =>
                canManage && (
                  <Button size="small" onClick={() => setEditing({ plan: row })}>
                    {t('delivery.edit')}
                  </Button>
                ),
            },
          ]}
        />
      </Card>
      <TrialSettingsCard canManage={canManage} />
      <GrantsCard />
      {editing && <PlanForm plan={editing.plan} onClose={() => setEditing(null)} />}
      {granting && <GrantForm plans={plans.data ?? []} onClose={() => setGranting(false)} />}
    </Space>
  );
}

function PlanForm({ plan, onClose }: { plan?: TrialPlan; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const formId = useId();
  const form = useSchemaForm(TrialPlanBody, {
    defaultValues: plan
      ? { ...plan, amount: trimDecimal(plan.amount) }
      : { name: '', amount: '', validityDays: 7, profitCapPercent: 100, trigger: 'campaign', active: true },
  });
  const save = useMutation({
    mutationFn: (values: z.output<typeof TrialPlanBody>) => saveTrialPlan(values),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: PLANS_KEY });
      message.success(t('common.saved'));
      onClose();
    },
    onError: (error) => message.error(error.message),
  });
  const { control } = form;
  return (
    <Modal
      open
      title={plan ? t('delivery.editPlan', { name: plan.name }) : t('delivery.newPlan')}
      okText={t('delivery.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{ htmlType: 'submit', form: formId, loading: save.isPending }}
      onCancel={onClose}
    >
      <Alert type="info" title={t('delivery.planNote')} style={{ marginBottom: 16 }} />
      <SchemaFormView id={formId} onSubmit={form.handleSubmit((values) => save.mutate(values))}>
        <FormField control={control} name="name" label={t('delivery.name')}>
          <Input maxLength={64} />
        </FormField>
        <FormField
          control={control}
          name="amount"
          label={t('delivery.amount')}
          invalidText={t('form.errors.CONFIG_AMOUNT_INVALID')}
        >
          <Input inputMode="decimal" />
        </FormField>
        <FormField control={control} name="validityDays" label={t('delivery.validityDays')}>
          <InputNumber min={1} max={3650} precision={0} />
        </FormField>
        <FormField
          control={control}
          name="profitCapPercent"
          label={t('delivery.profitCapPercent')}
          extra={t('delivery.profitCapHelp')}
        >
          <InputNumber min={0} max={10_000} precision={0} />
        </FormField>
        <FormField control={control} name="trigger" label={t('delivery.trigger')}>
          <Select options={TRIAL_TRIGGERS.map((v) => ({ value: v, label: t(`delivery.triggers.${v}`) }))} />
        </FormField>
        <FormField control={control} name="active" label={t('delivery.active')} valueProp="checked">
          <Switch />
        </FormField>
      </SchemaFormView>
    </Modal>
  );
}
