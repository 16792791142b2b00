import type { BalanceRow, LoginLogRow, StatementRow } from '@bourse/shared/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Descriptions, Space, Table, Tabs, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { formatTime } from '../../../shared/format.ts';
import { ReasonModal } from '../../../shared/reason-modal.tsx';
import { useSession } from '../../../shared/session.tsx';
import { fetchUser } from '../api/fetch-user.ts';
import { listBalances } from '../api/list-balances.ts';
import { listLogins } from '../api/list-logins.ts';
import { listStatement } from '../api/list-statement.ts';
import { setFrozen } from '../api/set-frozen.ts';
import { setTradeBan } from '../api/set-trade-ban.ts';

type Action = { path: 'freeze' | 'trade-ban'; field: 'frozen' | 'banned'; value: boolean; title: string };

export function UserDetailPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const session = useSession();
  const id = useParams().id ?? '';
  const client = useQueryClient();
  const [action, setAction] = useState<Action | null>(null);
  const user = useQuery({ queryKey: ['user', id], queryFn: () => fetchUser(id) });
  const canSeeMoney = session.can('users.balances');
  const balances = useQuery({
    queryKey: ['user', id, 'balances'],
    queryFn: () => listBalances(id),
    enabled: canSeeMoney,
  });
  const statement = useQuery({
    queryKey: ['user', id, 'statement'],
    queryFn: () => listStatement(id, 100),
    enabled: canSeeMoney,
  });
  const logins = useQuery({
    queryKey: ['user', id, 'logins'],
    queryFn: () => listLogins(id),
  });
  const change = useMutation({
    mutationFn: (input: Action & { reason: string }) =>
      input.path === 'freeze'
        ? setFrozen(id, input.value, input.reason)
        : setTradeBan(id, input.value, input.reason),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['user', id] });
      message.success(t('common.saved'));
    },
    onError: (error) => message.error(error.message),
  });
  const u = user.data;
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Card
        loading={user.isLoading}
        title={u ? `${u.username} (#${u.id})` : ''}
        extra={
          u && (
            <Space>
              {session.can('users.freeze') && (
                <Button
                  danger={u.status === 'active'}
                  onClick={() =>
                    setAction({
                      path: 'freeze',
                      field: 'frozen',
                      value: u.status === 'active',
                      title: u.status === 'active' ? t('users.freeze') : t('users.unfreeze'),
                    })
                  }
                >
                  {u.status === 'active' ? t('users.freeze') : t('users.unfreeze')}
                </Button>
              )}
              {session.can('users.trade_ban') && (
                <Button
                  onClick={() =>
                    setAction({
                      path: 'trade-ban',
                      field: 'banned',
                      value: !u.tradeBanned,
                      title: u.tradeBanned ? t('users.unban') : t('users.ban'),
                    })
                  }
                >
                  {u.tradeBanned ? t('users.unban') : t('users.ban')}
                </Button>
              )}
            </Space>
          )
        }
      >
        {u && (
          <Descriptions column={{ xs: 1, md: 2, xl: 3 }} size="small">
            <Descriptions.Item label={t('users.status')}>
              <Tag color={u.status === 'frozen' ? 'red' : 'green'}>{t(`users.${u.status}`)}</Tag>
              <Tag color={u.tradeBanned ? 'orange' : 'default'}>
                {u.tradeBanned ? t('users.tradeBanned') : t('users.tradeAllowed')}
              </Tag>
            </Descriptions.Item>
            <Descriptions.Item label={t('users.phone')}>{u.phone ?? '—'}</Descriptions.Item>
            <Descriptions.Item label={t('users.email')}>{u.email ?? '—'}</Descriptions.Item>
            <Descriptions.Item label={t('users.level')}>{u.level}</Descriptions.Item>
            <Descriptions.Item label={t('users.inviteCode')}>{u.inviteCode}</Descriptions.Item>
            <Descriptions.Item label={t('users.withdrawPassword')}>
              {u.hasWithdrawPassword ? t('users.yes') : t('users.no')}
            </Descriptions.Item>
            <Descriptions.Item label={t('users.createdAt')}>{formatTime(u.createdAt)}</Descriptions.Item>
            <Descriptions.Item label={t('users.regIp')}>{u.regIp}</Descriptions.Item>
            <Descriptions.Item label={t('users.lastLogin')}>{formatTime(u.lastLoginAt)}</Descriptions.Item>
            <Descriptions.Item label={t('users.lastLoginIp')}>{u.lastLoginIp}</Descriptions.Item>
          </Descriptions>
        )}
      </Card>
      <Card>
        <Tabs
          items={[
            ...(canSeeMoney
              ? [
                  {
                    key: 'balances',
                    label: t('users.balances'),
                    children: (
                      <Table<BalanceRow>
                        rowKey={(row) => `${row.asset}:${row.kind}`}
                        loading={balances.isLoading}
                        dataSource={balances.data ?? []}
                        pagination={false}
                        columns={[
                          { title: t('users.asset'), dataIndex: 'asset' },
                          { title: t('users.kind'), dataIndex: 'kind' },
                          { title: t('users.balance'), dataIndex: 'balance', align: 'right' },
                        ]}
                      />
                    ),
                  },
                  {
                    key: 'statement',
                    label: t('users.statement'),
                    children: (
                      <Table<StatementRow>
                        rowKey="id"
                        loading={statement.isLoading}
                        dataSource={statement.data ?? []}
                        columns={[
                          { title: t('users.time'), render: (_, row) => formatTime(row.createdAt) },
                          { title: t('users.type'), dataIndex: 'type' },
                          { title: t('users.asset'), dataIndex: 'asset' },
                          { title: t('users.kind'), dataIndex: 'kind' },
                          { title: t('users.amount'), dataIndex: 'amount', align: 'right' },
                          { title: t('users.balanceAfter'), dataIndex: 'balanceAfter', align: 'right' },
                          { title: t('users.memo'), dataIndex: 'memo' },
                        ]}
                      />
                    ),
                  },
                ]
              : []),
            {
              key: 'logins',
              label: t('users.logins'),
              children: (
                <Table<LoginLogRow>
                  rowKey="id"
                  loading={logins.isLoading}
                  dataSource={logins.data ?? []}
                  columns={[
                    { title: t('users.time'), render: (_, row) => formatTime(row.createdAt) },
                    {
                      title: t('users.success'),
                      render: (_, row) => (
                        <Tag color={row.success ? 'green' : 'red'}>
                          {row.success ? t('users.ok') : row.reason}
                        </Tag>
                      ),
                    },
                    { title: t('users.ip'), dataIndex: 'ip' },
                    { title: t('users.device'), dataIndex: 'device', ellipsis: true },
                  ]}
                />
              ),
            },
          ]}
        />
      </Card>
      <ReasonModal
        kind={action ? 'note' : null}
        title={action?.title ?? ''}
        onCancel={() => setAction(null)}
        onSubmit={async ({ reason }) => {
          if (action) await change.mutateAsync({ ...action, reason: reason ?? '' });
          setAction(null);
        }}
      />
    </Space>
  );
}
