import type { StaffDepositRow, StaffWithdrawalRow } from '@bourse/shared/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Image, Segmented, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatTime } from '../../../shared/format.ts';
import { ReasonModal } from '../../../shared/reason-modal.tsx';
import { useSession } from '../../../shared/session.tsx';
import { approveWithdrawal } from '../api/approve-withdrawal.ts';
import { confirmDeposit } from '../api/confirm-deposit.ts';
import { listDeposits } from '../api/list-deposits.ts';
import { listWithdrawals } from '../api/list-withdrawals.ts';
import { rejectDeposit } from '../api/reject-deposit.ts';
import { rejectWithdrawal } from '../api/reject-withdrawal.ts';

type Kind = 'deposits' | 'withdrawals';
const PAGE_SIZE = 20;
type ReviewRow = StaffDepositRow | StaffWithdrawalRow;
type Action = 'confirm' | 'approve' | 'reject';
type Pending = { row: ReviewRow; action: Action };

/** The queue's operations: a deposit is confirmed with its amount, a withdrawal approved. */
const OPERATIONS: Record<
  Kind,
  {
    list(status: string | undefined, page: number): Promise<{ list: ReviewRow[]; has_more: boolean }>;
    act(id: string, action: Action, input: { reason?: string; amount?: string }): Promise<unknown>;
  }
> = {
  deposits: {
    list: listDeposits,
    act: (id: string, action: Action, input: { reason?: string; amount?: string }) =>
      action === 'reject' ? rejectDeposit(id, input.reason ?? '') : confirmDeposit(id, input.amount ?? ''),
  },
  withdrawals: {
    list: listWithdrawals,
    act: (id: string, action: Action, input: { reason?: string }) =>
      action === 'reject' ? rejectWithdrawal(id, input.reason ?? '') : approveWithdrawal(id),
  },
};
/** Confirming a deposit asks for the amount that arrived; a rejection for its reason. */
const MODAL_KIND = { confirm: 'amount', approve: 'confirm', reject: 'reason' } as const;

const PENDING_STATUS: Record<Kind, string> = { deposits: 'confirming', withdrawals: 'review' };
/** Tag colours of the wallet's statuses (deposits: confirming/credited/rejected; withdrawals: review/passed/rejected). */
const STATUS_COLORS: Record<string, string> = {
  confirming: 'processing',
  review: 'processing',
  credited: 'success',
  passed: 'success',
  rejected: 'error',
};

/** A finance review queue: the wallet's deposits or withdrawals, with confirm/approve and reject. */
export function ReviewQueue({ kind }: { kind: Kind }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const session = useSession();
  const client = useQueryClient();
  const [status, setStatus] = useState<string>(PENDING_STATUS[kind]);
  const [page, setPage] = useState(1);
  const [pending, setPending] = useState<Pending | null>(null);
  const query = useQuery({
    queryKey: [kind, status, page],
    queryFn: () => OPERATIONS[kind].list(status || undefined, page),
  });
  const act = useMutation({
    mutationFn: (input: { id: string; action: Action; reason?: string; amount?: string }) =>
      OPERATIONS[kind].act(input.id, input.action, input),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: [kind] });
      void client.invalidateQueries({ queryKey: ['dashboard'] });
      message.success(t('review.done'));
    },
    onError: (error) => message.error(error.message),
  });
  const rows: ReviewRow[] = query.data?.list ?? [];
  // why: the wallet pages by `has_more`; one more page is offered while the server says there is more.
  const total = (page - 1) * PAGE_SIZE + rows.length + (query.data?.has_more ? 1 : 0);
  const canReview = session.can('finance.review');
  const isOpen = (row: ReviewRow) => row.status === PENDING_STATUS[kind];

  const columns: ColumnsType<ReviewRow> = [
    { title: '#', render: (_, row) => row.id },
    {
      title: t('review.user'),
      render: (_, row) => (
        <Link to={`/users/${row.user_id}`}>
          {row.username || '—'} <Typography.Text type="secondary">#{row.user_id}</Typography.Text>
        </Link>
      ),
    },
    { title: t('review.coin'), render: (_, row) => row.coin },
    { title: t('review.network'), render: (_, row) => row.network },
    { title: t('review.amount'), align: 'right', render: (_, row) => row.amount },
    kind === 'deposits'
      ? {
          title: t('review.txHash'),
          render: (_, row) => {
            const hash = 'hash' in row ? row.hash : '';
            return (
              <Typography.Text copyable={!!hash} ellipsis={{ tooltip: hash }} style={{ maxWidth: 150 }}>
                {hash}
              </Typography.Text>
            );
          },
        }
      : { title: t('review.fee'), align: 'right', render: (_, row) => ('fee' in row ? row.fee : '') },
    kind === 'deposits'
      ? {
          title: t('review.voucher'),
          render: (_, row) => {
            const src = 'voucher' in row ? row.voucher : '';
            return src ? (
              <Image
                src={src}
                width={56}
                height={56}
                style={{ objectFit: 'cover' }}
                alt={t('review.voucher')}
              />
            ) : (
              '—'
            );
          },
        }
      : {
          title: t('review.destination'),
          // why: staff check the whole address before paying out; it is never cut short.
          render: (_, row) => (
            <Typography.Text copyable>{'destination' in row ? row.destination : ''}</Typography.Text>
          ),
        },
    {
      title: t('review.status'),
      render: (_, row) => {
        const value = row.status;
        return (
          <Tag color={STATUS_COLORS[value]} data-status={value}>
            {t(`review.statuses.${value}`, { defaultValue: value })}
          </Tag>
        );
      },
    },
    // why: date and time may wrap onto two lines, so the queue fits a 1366-pixel screen.
    { title: t('review.createdAt'), width: 110, render: (_, row) => formatTime(row.created_at) },
    {
      title: t('review.actions'),
      fixed: 'right',
      render: (_, row) =>
        canReview && isOpen(row) ? (
          <Space>
            <Button
              type="primary"
              size="small"
              onClick={() => setPending({ row, action: kind === 'deposits' ? 'confirm' : 'approve' })}
            >
              {kind === 'deposits' ? t('review.confirm') : t('review.approve')}
            </Button>
            <Button danger size="small" onClick={() => setPending({ row, action: 'reject' })}>
              {t('review.reject')}
            </Button>
          </Space>
        ) : (
          row.reason
        ),
    },
  ];

  return (
    <>
      <Segmented
        style={{ marginBottom: 16 }}
        value={status}
        onChange={(value) => {
          setStatus(String(value));
          setPage(1);
        }}
        options={[
          { value: PENDING_STATUS[kind], label: t('review.pending') },
          { value: '', label: t('review.all') },
        ]}
      />
      {query.error && (
        <Alert
          type="warning"
          showIcon
          title={query.error.message || t('review.unavailable')}
          style={{ marginBottom: 16 }}
        />
      )}
      <Table<ReviewRow>
        size="middle"
        rowKey="id"
        loading={query.isLoading}
        dataSource={rows}
        columns={columns}
        pagination={{ current: page, total, pageSize: PAGE_SIZE, onChange: setPage }}
        // why: columns take their content's width (amounts, names and times on one line); a
        // narrow window scrolls the table sideways instead of cutting the action buttons off.
        scroll={{ x: 'max-content' }}
      />
      <ReasonModal
        kind={pending ? MODAL_KIND[pending.action] : null}
        title={pending ? t(`review.${pending.action}`) : ''}
        amountLabel={t('review.creditedAmount')}
        initialAmount={pending?.row.amount}
        onCancel={() => setPending(null)}
        onSubmit={async ({ reason, amount }) => {
          if (!pending) return;
          await act.mutateAsync({
            id: pending.row.id,
            action: pending.action,
            reason: pending.action === 'reject' ? reason : undefined,
            amount: pending.action === 'confirm' ? amount : undefined,
          });
          setPending(null);
        }}
      />
    </>
  );
}
