import type { AdminProject } from '@bourse/shared/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Descriptions, Input, Modal, Popconfirm, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime, trimDecimal } from '../../../shared/format.ts';
import { cancelProject } from '../api/cancel-project.ts';
import { fundInventory } from '../api/fund-inventory.ts';
import { listProjects } from '../api/list-projects.ts';
import { listRecords } from '../api/list-records.ts';
import { scheduleProject } from '../api/schedule-project.ts';
import { setProjectDisabled } from '../api/set-project-disabled.ts';
import { type Draft, ProjectDrawer, toDraft } from './project-drawer.tsx';

const STATE_COLOURS: Record<string, string> = {
  open: 'green',
  not_started: 'gold',
  allocating: 'blue',
  closed: 'default',
  cancelled: 'red',
  forbidden: 'volcano',
};

function RecordsModal({ project, onClose }: { project: AdminProject; onClose(): void }) {
  const { t } = useTranslation();
  const records = useQuery({
    queryKey: ['launchpad', 'records', project.id],
    queryFn: () => listRecords(project.id),
  });
  return (
    <Modal
      open
      width={900}
      title={t('launchpad.recordsOf', { name: project.name })}
      onCancel={onClose}
      footer={null}
    >
      <Table
        rowKey="id"
        size="small"
        loading={records.isLoading}
        dataSource={records.data?.list ?? []}
        locale={{ emptyText: t('common.empty') }}
        columns={[
          { title: 'ID', dataIndex: 'id' },
          { title: t('launchpad.user'), dataIndex: 'user_id' },
          { title: t('launchpad.requested'), dataIndex: 'requested', render: trimDecimal },
          { title: t('launchpad.committed'), dataIndex: 'committed', render: trimDecimal },
          { title: t('launchpad.quantity'), dataIndex: 'quantity', render: trimDecimal },
          { title: t('launchpad.paid'), dataIndex: 'paid', render: trimDecimal },
          { title: t('launchpad.refunded'), dataIndex: 'refunded', render: trimDecimal },
          {
            title: t('launchpad.stage'),
            dataIndex: 'stage',
            render: (s: string) => <Tag>{t(`launchpad.stages.${s}`)}</Tag>,
          },
          { title: t('launchpad.time'), dataIndex: 'created_at', render: (v: number) => formatTime(v) },
        ]}
      />
    </Modal>
  );
}

export function ProjectsTab({ canManage }: { canManage: boolean }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const client = useQueryClient();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [records, setRecords] = useState<AdminProject | null>(null);
  const projects = useQuery({
    queryKey: ['launchpad', 'projects'],
    queryFn: listProjects,
  });
  const act = useMutation({
    mutationFn: (run: () => Promise<unknown>) => run(),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['launchpad'] });
      message.success(t('launchpad.done'));
    },
    onError: (error) => message.error(error.message),
  });
  const askReason = (title: string, run: (reason: string) => void) => {
    let reason = '';
    modal.confirm({
      title,
      content: (
        <Input.TextArea
          rows={3}
          placeholder={t('launchpad.reason')}
          onChange={(e) => (reason = e.target.value)}
        />
      ),
      onOk: () => {
        if (!reason.trim()) {
          message.error(t('launchpad.reasonRequired'));
          return Promise.reject(new Error('reason'));
        }
        run(reason.trim());
        return undefined;
      },
    });
  };
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Alert type="info" title={t('launchpad.integrity')} />
      {canManage && (
        <Button type="primary" onClick={() => setDraft(toDraft())} data-testid="lp-new">
          {t('launchpad.newProject')}
        </Button>
      )}
      {projects.isError && <Alert type="error" title={projects.error.message} />}
      <Table<AdminProject>
        rowKey="id"
        loading={projects.isLoading}
        dataSource={projects.data?.list ?? []}
        pagination={false}
        scroll={{ x: 1200 }}
        locale={{ emptyText: t('common.empty') }}
        expandable={{
          expandedRowRender: (p) => (
            <Descriptions size="small" column={3}>
              <Descriptions.Item label={t('launchpad.perMin')}>{trimDecimal(p.per_min)}</Descriptions.Item>
              <Descriptions.Item label={t('launchpad.perMax')}>{trimDecimal(p.per_max)}</Descriptions.Item>
              <Descriptions.Item label={t('launchpad.individualLimit')}>
                {trimDecimal(p.individual_limit)}
              </Descriptions.Item>
              <Descriptions.Item label={t('launchpad.softCap')}>{trimDecimal(p.soft_cap)}</Descriptions.Item>
              <Descriptions.Item label={t('launchpad.maxPurchases')}>{p.max_purchases}</Descriptions.Item>
              <Descriptions.Item label={t('launchpad.budget')}>{p.referral_budget_bp} bp</Descriptions.Item>
              <Descriptions.Item label={t('launchpad.release')}>{formatTime(p.release_at)}</Descriptions.Item>
              <Descriptions.Item
                label={t('launchpad.raised')}
              >{`${trimDecimal(p.raised)} ${p.quote}`}</Descriptions.Item>
              <Descriptions.Item label={t('launchpad.participants')}>{p.participants}</Descriptions.Item>
            </Descriptions>
          ),
        }}
        columns={[
          { title: 'ID', dataIndex: 'id', width: 60 },
          { title: t('launchpad.name'), render: (_, p) => `${p.name} (${p.coin})` },
          { title: t('launchpad.mode'), render: (_, p) => t(`launchpad.modes.${p.mode}`) },
          {
            title: t('launchpad.state'),
            render: (_, p) => <Tag color={STATE_COLOURS[p.state]}>{t(`launchpad.states.${p.state}`)}</Tag>,
          },
          { title: t('launchpad.price'), render: (_, p) => `${trimDecimal(p.price)} ${p.quote}` },
          { title: t('launchpad.totalIssue'), render: (_, p) => trimDecimal(p.total_issue) },
          {
            title: t('launchpad.progress'),
            render: (_, p) => `${p.progress}% (${trimDecimal(p.subscribed)})`,
          },
          { title: t('launchpad.inventory'), render: (_, p) => trimDecimal(p.inventory) },
          {
            title: t('launchpad.window'),
            render: (_, p) => `${formatTime(p.start_at)} – ${formatTime(p.end_at)}`,
          },
          {
            title: t('launchpad.actions'),
            fixed: 'right',
            width: 300,
            render: (_, p) => (
              <Space wrap>
                <Button size="small" onClick={() => setRecords(p)}>
                  {t('launchpad.records')}
                </Button>
                {canManage && p.status === 'draft' && (
                  <>
                    <Button size="small" onClick={() => setDraft(toDraft(p))}>
                      {t('launchpad.edit')}
                    </Button>
                    <Popconfirm
                      title={t('launchpad.fundConfirm', { amount: trimDecimal(p.total_issue), coin: p.coin })}
                      onConfirm={() => act.mutate(() => fundInventory(p.id))}
                    >
                      <Button size="small" data-testid={`lp-fund-${p.id}`}>
                        {t('launchpad.fund')}
                      </Button>
                    </Popconfirm>
                    <Popconfirm
                      title={t('launchpad.publishConfirm')}
                      onConfirm={() => act.mutate(() => scheduleProject(p.id))}
                    >
                      <Button size="small" type="primary" data-testid={`lp-publish-${p.id}`}>
                        {t('launchpad.publish')}
                      </Button>
                    </Popconfirm>
                  </>
                )}
                {canManage && p.status === 'scheduled' && (
                  <>
                    <Button
                      size="small"
                      onClick={() =>
                        askReason(t(p.disabled ? 'launchpad.allow' : 'launchpad.forbid'), (reason) =>
                          act.mutate(() => setProjectDisabled(p.id, !p.disabled, reason)),
                        )
                      }
                    >
                      {t(p.disabled ? 'launchpad.allow' : 'launchpad.forbid')}
                    </Button>
                    <Button
                      size="small"
                      danger
                      onClick={() =>
                        askReason(t('launchpad.cancelConfirm'), (reason) =>
                          act.mutate(() => cancelProject(p.id, reason)),
                        )
                      }
                    >
                      {t('launchpad.cancel')}
                    </Button>
                  </>
                )}
              </Space>
            ),
          },
        ]}
      />
      {draft && <ProjectDrawer draft={draft} onClose={() => setDraft(null)} />}
      {records && <RecordsModal project={records} onClose={() => setRecords(null)} />}
    </Space>
  );
}
