import type { AdminReward } from '@bourse/shared/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Input, Select, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime, trimDecimal } from '../../../shared/format.ts';
import { listRewards } from '../api/list-rewards.ts';
import { voidReward } from '../api/void-reward.ts';

export function RewardsTab({ canManage }: { canManage: boolean }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const client = useQueryClient();
  const [status, setStatus] = useState<AdminReward['status'] | undefined>();
  const rewards = useQuery({
    queryKey: ['launchpad', 'rewards', status ?? ''],
    queryFn: () => listRewards(status),
  });
  const voidIt = useMutation({
    mutationFn: (a: { id: string; reason: string }) => voidReward(a.id, a.reason),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['launchpad', 'rewards'] });
      message.success(t('launchpad.done'));
    },
    onError: (error) => message.error(error.message),
  });
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Select
        allowClear
        style={{ width: 200 }}
        placeholder={t('launchpad.status')}
        value={status}
        onChange={setStatus}
        options={(['pending', 'paid', 'void', 'capped'] as const).map((s) => ({
          value: s,
          label: t(`launchpad.rewardStates.${s}`),
        }))}
      />
      <Table<AdminReward>
        rowKey="id"
        loading={rewards.isLoading}
        dataSource={rewards.data?.list ?? []}
        pagination={false}
        locale={{ emptyText: t('common.empty') }}
        columns={[
          { title: 'ID', dataIndex: 'id' },
          { title: t('launchpad.project'), dataIndex: 'project' },
          { title: t('launchpad.buyer'), render: (_, r) => `${r.buyer} (${r.buyer_id})` },
          { title: t('launchpad.beneficiary'), dataIndex: 'beneficiary_id' },
          { title: t('launchpad.generation'), dataIndex: 'generation' },
          { title: t('launchpad.base'), render: (_, r) => `${trimDecimal(r.base)} × ${r.rate_bp} bp` },
          { title: t('launchpad.amount'), render: (_, r) => `${trimDecimal(r.amount)} ${r.asset}` },
          { title: t('launchpad.cappedAmount'), render: (_, r) => trimDecimal(r.capped) },
          {
            title: t('launchpad.status'),
            render: (_, r) => <Tag>{t(`launchpad.rewardStates.${r.status}`)}</Tag>,
          },
          { title: t('launchpad.reason'), dataIndex: 'reason' },
          { title: t('launchpad.time'), dataIndex: 'created_at', render: (v: number) => formatTime(v) },
          {
            title: t('launchpad.actions'),
            render: (_, r) =>
              canManage && r.status === 'pending' ? (
                <Button
                  size="small"
                  danger
                  onClick={() => {
                    let reason = '';
                    modal.confirm({
                      title: t('launchpad.voidConfirm'),
                      content: <Input.TextArea rows={3} onChange={(e) => (reason = e.target.value)} />,
                      onOk: () => {
                        if (!reason.trim()) return Promise.reject(new Error(t('launchpad.reasonRequired')));
                        voidIt.mutate({ id: r.id, reason: reason.trim() });
                        return undefined;
                      },
                    });
                  }}
                >
                  {t('launchpad.void')}
                </Button>
              ) : null,
          },
        ]}
      />
    </Space>
  );
}
