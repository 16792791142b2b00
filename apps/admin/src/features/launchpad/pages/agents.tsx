import type { AdminAgent } from '@bourse/shared/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Input, Select, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../../shared/format.ts';
import { decideAgent } from '../api/decide-agent.ts';
import { listAgents } from '../api/list-agents.ts';

const NEXT: Record<AdminAgent['status'], ('approve' | 'reject' | 'suspend' | 'reinstate')[]> = {
  pending: ['approve', 'reject'],
  approved: ['suspend'],
  suspended: ['reinstate'],
  rejected: [],
};

export function AgentsTab({ canReview }: { canReview: boolean }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const client = useQueryClient();
  const [status, setStatus] = useState<AdminAgent['status'] | undefined>('pending');
  const agents = useQuery({
    queryKey: ['launchpad', 'agents', status ?? ''],
    queryFn: () => listAgents(status),
    enabled: canReview,
  });
  const decide = useMutation({
    mutationFn: (a: { id: string; decision: string; note: string }) => decideAgent(a.id, a.decision, a.note),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['launchpad', 'agents'] });
      message.success(t('launchpad.done'));
    },
    onError: (error) => message.error(error.message),
  });
  if (!canReview) return <Typography.Text type="secondary">{t('launchpad.noAgentRole')}</Typography.Text>;
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Select
        allowClear
        style={{ width: 200 }}
        value={status}
        onChange={setStatus}
        options={(['pending', 'approved', 'suspended', 'rejected'] as const).map((s) => ({
          value: s,
          label: t(`launchpad.agentStates.${s}`),
        }))}
      />
      <Table<AdminAgent>
        rowKey="user_id"
        loading={agents.isLoading}
        dataSource={agents.data?.list ?? []}
        pagination={false}
        locale={{ emptyText: t('common.empty') }}
        columns={[
          { title: t('launchpad.user'), render: (_, a) => `${a.username} (${a.user_id})` },
          {
            title: t('launchpad.status'),
            render: (_, a) => <Tag>{t(`launchpad.agentStates.${a.status}`)}</Tag>,
          },
          { title: t('launchpad.appliedAt'), render: (_, a) => formatTime(a.applied_at) },
          {
            title: t('launchpad.decidedBy'),
            render: (_, a) => (a.decided_by ? `${a.decided_by} · ${formatTime(a.decided_at ?? 0)}` : '—'),
          },
          { title: t('launchpad.note'), dataIndex: 'note' },
          {
            title: t('launchpad.actions'),
            render: (_, a) => (
              <Space>
                {NEXT[a.status].map((decision) => (
                  <Button
                    key={decision}
                    size="small"
                    danger={decision === 'reject' || decision === 'suspend'}
                    onClick={() => {
                      let note = '';
                      modal.confirm({
                        title: t(`launchpad.decisions.${decision}`),
                        content: (
                          <Input.TextArea
                            rows={2}
                            placeholder={t('launchpad.note')}
                            onChange={(e) => (note = e.target.value)}
                          />
                        ),
                        onOk: () => decide.mutate({ id: a.user_id, decision, note }),
                      });
                    }}
                  >
                    {t(`launchpad.decisions.${decision}`)}
                  </Button>
                ))}
              </Space>
            ),
          },
        ]}
      />
    </Space>
  );
}
