import { fromAtoms, toAtoms } from '@bourse/shared';
import '../components/launchpad.css';
import Button from 'antd-mobile/es/components/button';
import Tabs from 'antd-mobile/es/components/tabs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatDecimal } from '../../../shared/format/format-decimal.ts';
import { useFormatTime } from '../../../shared/format/format-time.ts';
import { Amount } from '../../../shared/ui/amount.tsx';
import { ListSkeleton } from '../../../shared/ui/list-skeleton.tsx';
import { LoadMore } from '../../../shared/ui/load-more.tsx';
import { Page } from '../../../shared/ui/page.tsx';
import { EmptyState, ErrorState } from '../../../shared/ui/state-block.tsx';
import { showToast } from '../../../shared/ui/toast.ts';
import {
  agentExportUrl,
  useAgentCentre,
  useAgentRewards,
  useAgentStatus,
  useApplyAgent,
} from '../api/launchpad.ts';

const TABS = ['all', '1', '2', '3'] as const;

/** Paid rewards per day over the last 30 days, as bars (the tallest day is full height). */
function DailyChart({ daily }: { daily: { day: string; amount: string }[] }) {
  const { t } = useTranslation();
  const format = useFormatDecimal();
  const values = daily.map((d) => Number(d.amount));
  const max = Math.max(...values, 0);
  const total = fromAtoms(daily.reduce((s, d) => s + toAtoms(d.amount), 0n));
  return (
    <figure className="lp-section" data-testid="agent-chart" aria-label={t('launchpad.agent.chart')}>
      <h2>{t('launchpad.agent.chart')}</h2>
      <div className="lp-chart">
        {daily.map((d, i) => (
          <span
            key={d.day}
            title={`${d.day}: ${d.amount}`}
            style={{ height: `${max > 0 ? Math.max(2, ((values[i] ?? 0) / max) * 100) : 2}%` }}
          />
        ))}
      </div>
      <div className="lp-chart-axis">
        <span>{daily[0]?.day.slice(5)}</span>
        <span>{t('launchpad.agent.total', { amount: format(total, 2) })}</span>
        <span>{daily.at(-1)?.day.slice(5)}</span>
      </div>
    </figure>
  );
}

function Members({ generation }: { generation: number | undefined }) {
  const { t } = useTranslation();
  const formatTime = useFormatTime();
  const centre = useAgentCentre(generation, true);
  if (centre.isPending) return <ListSkeleton rows={3} />;
  if (centre.isError) return <ErrorState message={centre.error.message} onRetry={() => centre.refetch()} />;
  const members = centre.data.pages.flatMap((p) => p.members);
  if (members.length === 0) return <EmptyState message={t('launchpad.agent.noMembers')} />;
  return (
    <div data-testid="agent-members">
      {members.map((m, i) => (
        <div key={`${m.name}-${m.joined_at}-${i}`} className="lp-member">
          <span>
            {m.name}
            <span className="lp-member-meta">
              {' '}
              · {t(`launchpad.agent.generation`, { value: m.generation })}
            </span>
          </span>
          <span className="lp-member-meta">
            {formatTime(m.joined_at)} ·{' '}
            {m.verified ? t('launchpad.agent.verified') : t('launchpad.agent.unverified')}
            <br />
            {t('launchpad.agent.paid')} <Amount value={m.total_paid} decimals={2} unit="USDT" />
          </span>
        </div>
      ))}
      <LoadMore query={centre} />
    </div>
  );
}

function Rewards() {
  const { t } = useTranslation();
  const formatTime = useFormatTime();
  const rewards = useAgentRewards(true);
  if (rewards.isPending) return <ListSkeleton rows={2} />;
  if (rewards.isError)
    return <ErrorState message={rewards.error.message} onRetry={() => rewards.refetch()} />;
  const list = rewards.data.pages.flatMap((p) => p.list);
  if (list.length === 0) return <EmptyState message={t('launchpad.agent.noRewards')} />;
  return (
    <div data-testid="agent-rewards">
      {list.map((r) => (
        <div key={r.id} className="lp-member">
          <span>
            {r.project}
            <span className="lp-member-meta">
              {' '}
              · {r.buyer} · {t('launchpad.agent.generation', { value: r.generation })}
            </span>
          </span>
          <span className="lp-member-meta">
            <Amount value={r.amount} decimals={2} unit={r.asset} /> ·{' '}
            {t(`launchpad.rewardStatus.${r.status}`)}
            <br />
            {formatTime(r.created_at)}
          </span>
        </div>
      ))}
      <LoadMore query={rewards} />
    </div>
  );
}

function Centre() {
  const { t } = useTranslation();
  const [tab, setTab] = useState<(typeof TABS)[number]>('all');
  const summary = useAgentCentre(undefined, true);
  const first = summary.data?.pages[0];
  const exportUrl = agentExportUrl();
  return (
    <>
      <section className="lp-section" data-testid="agent-counts">
        <h2>{t('launchpad.agent.team')}</h2>
        <div className="lp-counts">
          {[0, 1, 2].map((i) => (
            <div key={i}>
              <strong className="num">{first?.counts[i] ?? '—'}</strong>
              <span>{t('launchpad.agent.generation', { value: i + 1 })}</span>
            </div>
          ))}
        </div>
      </section>
      {first && <DailyChart daily={first.daily} />}
      <section className="lp-section">
        <Tabs activeKey={tab} onChange={(key) => setTab(key as (typeof TABS)[number])}>
          {TABS.map((key) => (
            <Tabs.Tab
              key={key}
              title={
                key === 'all' ? t('launchpad.agent.all') : t('launchpad.agent.generation', { value: key })
              }
            />
          ))}
        </Tabs>
        <Members generation={tab === 'all' ? undefined : Number(tab)} />
      </section>
      <section className="lp-section">
        <h2>{t('launchpad.agent.rewards')}</h2>
        <Rewards />
        <a className="lp-link" href={exportUrl} download="rewards.csv" data-testid="agent-export">
          {t('launchpad.agent.export')}
        </a>
      </section>
    </>
  );
}

/**
 * `/Agent/index` (no path in the spec; named in its style): the agent centre. Team counts per
 * generation, members (masked name, join date, generation, verified, total paid — never balances
 * or contacts), a daily chart of rewards, reward records and their CSV. Others apply here.
 */
export default function AgentPage() {
  const { t } = useTranslation();
  const status = useAgentStatus();
  const apply = useApplyAgent();
  return (
    <Page title={t('launchpad.agent.title')}>
      {status.isPending ? (
        <ListSkeleton rows={3} />
      ) : status.isError ? (
        <ErrorState message={status.error.message} onRetry={() => status.refetch()} />
      ) : status.data.status === 'approved' ? (
        <Centre />
      ) : (
        <section className="lp-section" data-testid="agent-state">
          <p>{t(`launchpad.agent.state.${status.data.status}`)}</p>
          {(status.data.status === 'none' || status.data.status === 'rejected') && (
            <Button
              block
              color="primary"
              loading={apply.isPending}
              onClick={() =>
                apply.mutate(undefined, { onSuccess: (answer) => showToast(answer.msg, 'success') })
              }
              data-testid="agent-apply"
            >
              {t('launchpad.agent.apply')}
            </Button>
          )}
        </section>
      )}
    </Page>
  );
}
