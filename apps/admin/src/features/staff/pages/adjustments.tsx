import { AdjustBody, type AdjustmentRequest, IdParams } from '@bourse/shared/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Input, Space, Table } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormField, SchemaFormView, useSchemaForm } from '../../../shared/form.tsx';
import { formatTime } from '../../../shared/format.ts';
import { ReasonModal } from '../../../shared/reason-modal.tsx';
import { adjustBalance } from '../api/adjust-balance.ts';
import { approveAdjustment } from '../api/approve-adjustment.ts';
import { listPendingAdjustments } from '../api/list-adjustment-requests.ts';
import { rejectAdjustment } from '../api/reject-adjustment.ts';

const REQUESTS_KEY = ['adjustment-requests', 'pending'];

// why: the user is chosen on the page, so the path's id is a field here.
const AdjustFields = AdjustBody.pick({ asset: true, amount: true, reason: true }).extend({
  userId: IdParams.shape.id,
});
const EMPTY = { userId: '', asset: '', amount: '', reason: '' };

function newKey(): string {
  return crypto.randomUUID().replaceAll('-', '');
}

/**
 * Adjustments waiting for a second staff member: who asked, for what and why; another finance
 * member approves (the entry is posted) or anyone rejects (the maker withdraws) with a reason.
 */
function PendingRequests() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const requests = useQuery({
    queryKey: REQUESTS_KEY,
    queryFn: listPendingAdjustments,
  });
  const [rejecting, setRejecting] = useState<AdjustmentRequest | null>(null);
  const done = () => client.invalidateQueries({ queryKey: REQUESTS_KEY });
  const approve = useMutation({
    mutationFn: approveAdjustment,
    onSuccess: (result) => {
      if (result.status === 'done') message.success(t('adjust.done', { balance: result.balance }));
      void done();
    },
    onError: (error) => message.error(error.message),
  });
  return (
    <Card title={t('adjust.pendingTitle')} style={{ marginTop: 16 }} data-testid="adjustment-requests">
      <Table<AdjustmentRequest>
        rowKey="id"
        size="small"
        loading={requests.isPending}
        dataSource={requests.data ?? []}
        pagination={false}
        locale={{ emptyText: t('adjust.pendingEmpty') }}
        columns={[
          { title: t('adjust.userId'), render: (_, row) => `${row.username} #${row.userId}` },
          { title: t('adjust.asset'), dataIndex: 'asset' },
          { title: t('adjust.amount'), dataIndex: 'amount' },
          { title: t('adjust.usdtValue'), render: (_, row) => row.usdtValue ?? t('adjust.noPrice') },
          { title: t('adjust.reason'), dataIndex: 'reason' },
          { title: t('adjust.requestedBy'), dataIndex: 'requestedBy' },
          { title: t('adjust.requestedAt'), render: (_, row) => formatTime(row.requestedAt) },
          {
            title: '',
            render: (_, row) => (
              <Space>
                <Button
                  size="small"
                  type="primary"
                  loading={approve.isPending && approve.variables === row.id}
                  onClick={() => approve.mutate(row.id)}
                >
                  {t('adjust.approve')}
                </Button>
                <Button size="small" danger onClick={() => setRejecting(row)}>
                  {t('adjust.reject')}
                </Button>
              </Space>
            ),
          },
        ]}
      />
      <ReasonModal
        kind={rejecting ? 'reason' : null}
        title={t('adjust.reject')}
        onCancel={() => setRejecting(null)}
        onSubmit={async ({ reason }) => {
          if (!rejecting) return;
          await rejectAdjustment(rejecting.id, reason);
          setRejecting(null);
          await done();
        }}
      />
    </Card>
  );
}

/** A manual adjustment: a double-entry ledger movement with a reason, visible in the user's bills. */
export function AdjustmentsPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const form = useSchemaForm(AdjustFields, { defaultValues: EMPTY });
  // why: the key makes a double click or a retry post the adjustment once; a new one per success.
  const key = useRef(newKey());
  const adjust = useMutation({
    mutationFn: ({ userId, ...values }: { userId: string; asset: string; amount: string; reason: string }) =>
      adjustBalance(userId, { ...values, key: key.current }),
    onSuccess: (result) => {
      key.current = newKey();
      form.reset(EMPTY);
      if (result.status === 'done') message.success(t('adjust.done', { balance: result.balance }));
      else {
        message.info(t('adjust.pending'));
        void client.invalidateQueries({ queryKey: REQUESTS_KEY });
      }
    },
    onError: (error) => message.error(error.message),
  });
  const { control } = form;
  return (
    <>
      <Card title={t('adjust.title')} style={{ maxWidth: 560 }}>
        <Alert type="info" title={t('adjust.help')} style={{ marginBottom: 16 }} />
        <SchemaFormView onSubmit={form.handleSubmit((values) => adjust.mutate(values))}>
          <FormField
            control={control}
            name="userId"
            label={t('adjust.userId')}
            invalidText={t('adjust.userIdRule')}
          >
            <Input inputMode="numeric" />
          </FormField>
          <FormField
            control={control}
            name="asset"
            label={t('adjust.asset')}
            invalidText={t('adjust.assetRule')}
            normalize={(value) => value.toUpperCase()}
          >
            <Input placeholder="USDT" />
          </FormField>
          <FormField
            control={control}
            name="amount"
            label={t('adjust.amount')}
            invalidText={t('adjust.amountRule')}
          >
            <Input inputMode="decimal" />
          </FormField>
          <FormField
            control={control}
            name="reason"
            label={t('adjust.reason')}
            invalidText={t('users.reasonRule')}
          >
            <Input.TextArea rows={3} />
          </FormField>
          <Button type="primary" htmlType="submit" loading={adjust.isPending}>
            {t('adjust.submit')}
          </Button>
        </SchemaFormView>
      </Card>
      <PendingRequests />
    </>
  );
}
