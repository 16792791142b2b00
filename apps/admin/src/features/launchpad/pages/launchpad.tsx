import type { AdminAgent, AdminProject, AdminReward, ReferralConfigInfo } from '@bourse/shared/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Checkbox,
  DatePicker,
  Descriptions,
  Drawer,
  Input,
  InputNumber,
  Modal,
  Popconfirm,
  Segmented,
  Select,
  Space,
  Table,
  Tabs,
  Tag,
  Typography,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../../app/session.tsx';
import { Field } from '../../../shared/field.tsx';
import { formatTime, trimDecimal } from '../../../shared/format.ts';
import { TEXT_LOCALES } from '../../../shared/locales.ts';
import { cancelProject } from '../api/cancel-project.ts';
import { createProject } from '../api/create-project.ts';
import { decideAgent } from '../api/decide-agent.ts';
import { editProject } from '../api/edit-project.ts';
import { fetchReferralConfig } from '../api/fetch-referral-config.ts';
import { fundInventory } from '../api/fund-inventory.ts';
import { listAgents } from '../api/list-agents.ts';
import { listProjects } from '../api/list-projects.ts';
import { listRecords } from '../api/list-records.ts';
import { listRewards } from '../api/list-rewards.ts';
import { saveReferralConfig } from '../api/save-referral-config.ts';
import { scheduleProject } from '../api/schedule-project.ts';
import { setProjectDisabled } from '../api/set-project-disabled.ts';
import { voidReward } from '../api/void-reward.ts';

const STATE_COLOURS: Record<string, string> = {
  open: 'green',
  not_started: 'gold',
  allocating: 'blue',
  closed: 'default',
  cancelled: 'red',
  forbidden: 'volcano',
};

interface Draft {
  id?: string;
  name: string;
  coin: string;
  coinName: string;
  coinDecimals: number;
  quote: string;
  window: [Dayjs, Dayjs] | null;
  totalIssue: string;
  price: string;
  lockDays: number;
  perMin: string;
  perMax: string;
  individualLimit: string;
  maxPurchases: number;
  softCap: string;
  mode: 'pro_rata' | 'fcfs';
  referralBudgetBp: number;
  descriptions: Record<string, string>;
}

function toDraft(p?: AdminProject): Draft {
  if (!p)
    return {
      name: '',
      coin: '',
      coinName: '',
      coinDecimals: 4,
      quote: 'USDT',
      window: [dayjs().add(1, 'day').startOf('hour'), dayjs().add(8, 'day').startOf('hour')],
      totalIssue: '',
      price: '',
      lockDays: 30,
      perMin: '',
      perMax: '',
      individualLimit: '',
      maxPurchases: 1,
      softCap: '0',
      mode: 'pro_rata',
      referralBudgetBp: 500,
      descriptions: {},
    };
  return {
    id: p.id,
    name: p.name,
    coin: p.coin,
    coinName: p.name,
    coinDecimals: 4,
    quote: p.quote,
    window: [dayjs(p.start_at), dayjs(p.end_at)],
    totalIssue: trimDecimal(p.total_issue),
    price: trimDecimal(p.price),
    lockDays: p.lock_days,
    perMin: trimDecimal(p.per_min),
    perMax: trimDecimal(p.per_max),
    individualLimit: trimDecimal(p.individual_limit),
    maxPurchases: p.max_purchases,
    softCap: trimDecimal(p.soft_cap),
    mode: p.mode,
    referralBudgetBp: p.referral_budget_bp,
    descriptions: p.descriptions,
  };
}

function ProjectDrawer({ draft, onClose }: { draft: Draft; onClose(): void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [value, setValue] = useState(draft);
  const set = <K extends keyof Draft>(key: K, next: Draft[K]) => setValue((v) => ({ ...v, [key]: next }));
  const save = useMutation({
    mutationFn: () => {
      const values = {
        name: value.name,
        coin: value.coin.toUpperCase(),
        coinName: value.coinName || value.name,
        coinDecimals: value.coinDecimals,
        quote: value.quote.toUpperCase(),
        startAt: value.window?.[0].valueOf() ?? 0,
        endAt: value.window?.[1].valueOf() ?? 0,
        totalIssue: value.totalIssue,
        price: value.price,
        lockDays: value.lockDays,
        perMin: value.perMin,
        perMax: value.perMax,
        individualLimit: value.individualLimit,
        maxPurchases: value.maxPurchases,
        softCap: value.softCap || '0',
        mode: value.mode,
        referralBudgetBp: value.referralBudgetBp,
        descriptions: Object.fromEntries(
          Object.entries(value.descriptions).filter(([, text]) => text.trim()),
        ),
      };
      return value.id ? editProject(value.id, values) : createProject(values);
    },
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['launchpad'] });
      message.success(t('launchpad.saved'));
      onClose();
    },
    onError: (error) => message.error(error.message),
  });
  const grid = { display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 12 } as const;
  return (
    <Drawer
      open
      width={760}
      title={value.id ? t('launchpad.editProject', { id: value.id }) : t('launchpad.newProject')}
      onClose={onClose}
      extra={
        <Button type="primary" loading={save.isPending} onClick={() => save.mutate()} data-testid="lp-save">
          {t('launchpad.saveDraft')}
        </Button>
      }
    >
      <Space orientation="vertical" style={{ width: '100%' }} size="middle">
        <Alert type="info" title={t('launchpad.draftNote')} />
        <div style={grid}>
          <Field label={t('launchpad.name')}>
            <Input value={value.name} onChange={(e) => set('name', e.target.value)} data-testid="lp-name" />
          </Field>
          <Field label={t('launchpad.mode')}>
            <Segmented
              value={value.mode}
              onChange={(mode) => set('mode', mode as Draft['mode'])}
              options={[
                { value: 'pro_rata', label: t('launchpad.modes.pro_rata') },
                { value: 'fcfs', label: t('launchpad.modes.fcfs') },
              ]}
            />
          </Field>
          <Field label={t('launchpad.coin')}>
            <Input
              value={value.coin}
              disabled={Boolean(value.id)}
              onChange={(e) => set('coin', e.target.value.toUpperCase())}
              data-testid="lp-coin"
            />
          </Field>
          <Field label={t('launchpad.coinName')}>
            <Input value={value.coinName} onChange={(e) => set('coinName', e.target.value)} />
          </Field>
          <Field label={t('launchpad.quote')}>
            <Input
              value={value.quote}
              disabled={Boolean(value.id)}
              onChange={(e) => set('quote', e.target.value)}
            />
          </Field>
          <Field label={t('launchpad.window')}>
            <DatePicker.RangePicker
              showTime
              value={value.window}
              onChange={(range) => set('window', range?.[0] && range[1] ? [range[0], range[1]] : null)}
            />
          </Field>
          <Field label={t('launchpad.totalIssue')}>
            <Input
              value={value.totalIssue}
              onChange={(e) => set('totalIssue', e.target.value)}
              data-testid="lp-supply"
            />
          </Field>
          <Field label={t('launchpad.price')}>
            <Input
              value={value.price}
              onChange={(e) => set('price', e.target.value)}
              data-testid="lp-price"
            />
          </Field>
          <Field label={t('launchpad.perMin')}>
            <Input value={value.perMin} onChange={(e) => set('perMin', e.target.value)} />
          </Field>
          <Field label={t('launchpad.perMax')}>
            <Input value={value.perMax} onChange={(e) => set('perMax', e.target.value)} />
          </Field>
          <Field label={t('launchpad.individualLimit')}>
            <Input value={value.individualLimit} onChange={(e) => set('individualLimit', e.target.value)} />
          </Field>
          <Field label={t('launchpad.softCap')}>
            <Input value={value.softCap} onChange={(e) => set('softCap', e.target.value)} />
          </Field>
          <Field label={t('launchpad.lockDays')}>
            <InputNumber
              min={0}
              max={3650}
              value={value.lockDays}
              onChange={(n) => set('lockDays', n ?? 0)}
            />
          </Field>
          <Field label={t('launchpad.maxPurchases')}>
            <InputNumber
              min={1}
              max={1000}
              value={value.maxPurchases}
              onChange={(n) => set('maxPurchases', n ?? 1)}
            />
          </Field>
          <Field label={t('launchpad.budget')}>
            <InputNumber
              min={0}
              max={10000}
              value={value.referralBudgetBp}
              onChange={(n) => set('referralBudgetBp', n ?? 0)}
              suffix="bp"
            />
          </Field>
        </div>
        <Typography.Text strong>{t('launchpad.descriptions')}</Typography.Text>
        <Tabs
          items={TEXT_LOCALES.map((locale) => ({
            key: locale,
            label: locale,
            children: (
              <Input.TextArea
                rows={4}
                value={value.descriptions[locale] ?? ''}
                onChange={(e) => set('descriptions', { ...value.descriptions, [locale]: e.target.value })}
              />
            ),
          }))}
        />
      </Space>
    </Drawer>
  );
}

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

function ProjectsTab({ canManage }: { canManage: boolean }) {
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

function RewardsTab({ canManage }: { canManage: boolean }) {
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

function ReferralTab({ canEdit }: { canEdit: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const config = useQuery({
    queryKey: ['launchpad', 'referral'],
    queryFn: fetchReferralConfig,
  });
  const [edit, setEdit] = useState<(ReferralConfigInfo & { acknowledge: boolean }) | null>(null);
  const save = useMutation({
    mutationFn: (c: ReferralConfigInfo & { acknowledge: boolean }) =>
      saveReferralConfig({
        ratesBp: c.ratesBp,
        generations: c.generations,
        capPerProject: trimDecimal(c.capPerProject),
        capPerMonth: trimDecimal(c.capPerMonth),
        budgetBp: c.budgetBp,
        blockedCountries: c.blockedCountries,
        acknowledge: c.acknowledge,
      }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['launchpad', 'referral'] });
      setEdit(null);
      message.success(t('launchpad.saved'));
    },
    onError: (error) => message.error(error.message),
  });
  const data = config.data;
  if (!data) return config.isError ? <Alert type="error" title={config.error.message} /> : null;
  const v = edit ?? { ...data, acknowledge: false };
  const set = <K extends keyof typeof v>(key: K, next: (typeof v)[K]) => setEdit({ ...v, [key]: next });
  const turningOn = v.generations === 3 && data.generations !== 3;
  return (
    <Space orientation="vertical" style={{ width: '100%', maxWidth: 760 }} size="middle">
      <Alert type="warning" showIcon title={t('launchpad.legalTitle')} description={t('launchpad.legal')} />
      <Descriptions size="small" column={2} bordered>
        <Descriptions.Item label={t('launchpad.acknowledgedBy')}>
          {data.acknowledgedBy ? `${data.acknowledgedBy} · ${formatTime(data.acknowledgedAt ?? 0)}` : '—'}
        </Descriptions.Item>
        <Descriptions.Item label={t('launchpad.generations')}>{data.generations}</Descriptions.Item>
      </Descriptions>
      <div style={{ display: 'grid', gridTemplateColumns: '1fr 1fr 1fr', gap: 12 }}>
        {[0, 1, 2].map((i) => (
          <Field key={i} label={t('launchpad.rate', { generation: i + 1 })}>
            <InputNumber
              disabled={!canEdit}
              min={0}
              max={1000}
              suffix="bp"
              value={v.ratesBp[i]}
              onChange={(n) => {
                const rates = [...v.ratesBp] as [number, number, number];
                rates[i] = n ?? 0;
                set('ratesBp', rates);
              }}
            />
          </Field>
        ))}
        <Field label={t('launchpad.generations')}>
          <Segmented
            disabled={!canEdit}
            value={v.generations}
            onChange={(g) => set('generations', Number(g))}
            options={[
              { value: 1, label: t('launchpad.oneGeneration') },
              { value: 3, label: t('launchpad.threeGenerations') },
            ]}
          />
        </Field>
        <Field label={t('launchpad.capPerProject')}>
          <Input
            disabled={!canEdit}
            value={trimDecimal(v.capPerProject)}
            onChange={(e) => set('capPerProject', e.target.value)}
          />
        </Field>
        <Field label={t('launchpad.capPerMonth')}>
          <Input
            disabled={!canEdit}
            value={trimDecimal(v.capPerMonth)}
            onChange={(e) => set('capPerMonth', e.target.value)}
          />
        </Field>
        <Field label={t('launchpad.budget')}>
          <InputNumber
            disabled={!canEdit}
            min={0}
            max={10000}
            suffix="bp"
            value={v.budgetBp}
            onChange={(n) => set('budgetBp', n ?? 0)}
          />
        </Field>
      </div>
      <Field label={t('launchpad.blockedCountries')}>
        <Select
          mode="tags"
          disabled={!canEdit}
          style={{ width: '100%' }}
          value={v.blockedCountries}
          onChange={(list: string[]) =>
            set(
              'blockedCountries',
              list.map((c) => c.toUpperCase().slice(0, 2)),
            )
          }
        />
      </Field>
      {turningOn && (
        <Checkbox
          checked={v.acknowledge}
          onChange={(e) => set('acknowledge', e.target.checked)}
          data-testid="lp-ack"
        >
          {t('launchpad.acknowledge')}
        </Checkbox>
      )}
      {canEdit ? (
        <Button
          type="primary"
          loading={save.isPending}
          disabled={!edit}
          onClick={() => edit && save.mutate(edit)}
        >
          {t('launchpad.saveConfig')}
        </Button>
      ) : (
        <Typography.Text type="secondary">{t('launchpad.ownerOnly')}</Typography.Text>
      )}
    </Space>
  );
}

const NEXT: Record<AdminAgent['status'], ('approve' | 'reject' | 'suspend' | 'reinstate')[]> = {
  pending: ['approve', 'reject'],
  approved: ['suspend'],
  suspended: ['reinstate'],
  rejected: [],
};

function AgentsTab({ canReview }: { canReview: boolean }) {
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

/**
 * The launchpad: projects (drafts, the issuer's tokens into inventory, publication, forbid,
 * cancel with refunds), their records, referral rewards (void a pending one with a reason), the
 * referral programme (owner; generations 2–3 behind the legal warning) and agents. Progress, sold
 * amounts and allocations are the records' sums: nothing here sets them. The server audits all.
 */
export function LaunchpadPage() {
  const { t } = useTranslation();
  const session = useSession();
  return (
    <>
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {t('launchpad.title')}
      </Typography.Title>
      <Tabs
        destroyOnHidden
        items={[
          {
            key: 'projects',
            label: t('launchpad.tabs.projects'),
            children: <ProjectsTab canManage={session.can('launchpad.manage')} />,
          },
          {
            key: 'rewards',
            label: t('launchpad.tabs.rewards'),
            children: <RewardsTab canManage={session.can('launchpad.manage')} />,
          },
          {
            key: 'referral',
            label: t('launchpad.tabs.referral'),
            children: <ReferralTab canEdit={session.can('launchpad.referral')} />,
          },
          {
            key: 'agents',
            label: t('launchpad.tabs.agents'),
            children: <AgentsTab canReview={session.can('agents.review')} />,
          },
        ]}
      />
    </>
  );
}
