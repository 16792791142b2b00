import '../components/launchpad.css';
import { trimDecimal } from '@bourse/shared';
import type { IssueDetail } from '@bourse/shared/api';
import Button from 'antd-mobile/es/components/button';
import Popup from 'antd-mobile/es/components/popup';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useFormatDecimal } from '../../../shared/format/format-decimal.ts';
import { useFormatTime } from '../../../shared/format/format-time.ts';
import { PATHS } from '../../../shared/paths.ts';
import { Amount } from '../../../shared/ui/amount.tsx';
import { AmountInput } from '../../../shared/ui/amount-input.tsx';
import { ListSkeleton } from '../../../shared/ui/list-skeleton.tsx';
import { Page } from '../../../shared/ui/page.tsx';
import { ErrorState } from '../../../shared/ui/state-block.tsx';
import { SubmitButton } from '../../../shared/ui/submit-button.tsx';
import { showToast } from '../../../shared/ui/toast.ts';
import { useAvailable, useProject, useSubscribe } from '../api/launchpad.ts';
import { Countdown, Progress, StateTag } from '../components/labels.tsx';

const QTY_DECIMALS = 8;

/** Waits until `value` has stopped changing for `ms`, so typing does not ask for a price per key. */
function useSettled(value: string, ms: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), ms);
    return () => window.clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

function Terms({ detail }: { detail: IssueDetail }) {
  const { t } = useTranslation();
  const formatTime = useFormatTime('medium');
  const p = detail.project;
  const rows: [string, React.ReactNode, string][] = [
    [t('launchpad.price'), <Amount key="p" value={p.price} unit={p.quote} />, 'term-price'],
    [
      t('launchpad.totalIssue'),
      <Amount key="s" value={p.total_issue} decimals={0} unit={p.coin} />,
      'term-supply',
    ],
    [t('launchpad.startAt'), formatTime(p.start_at), 'term-start'],
    [t('launchpad.endAt'), formatTime(p.end_at), 'term-end'],
    [t('launchpad.lock'), t('launchpad.lockDays', { value: p.lock_days }), 'term-lock'],
    [t('launchpad.releaseAt'), formatTime(p.release_at), 'term-release'],
    [t('launchpad.perMin'), <Amount key="min" value={p.per_min} decimals={4} unit={p.coin} />, 'term-min'],
    [t('launchpad.perMax'), <Amount key="max" value={p.per_max} decimals={4} unit={p.coin} />, 'term-max'],
    [
      t('launchpad.individualLimit'),
      <Amount key="h" value={p.individual_limit} decimals={4} unit={p.coin} />,
      'term-limit',
    ],
    [t('launchpad.maxPurchases'), p.max_purchases, 'term-purchases'],
    [t('launchpad.participants'), p.participants, 'term-participants'],
  ];
  return (
    <dl className="lp-rows">
      {rows.map(([label, value, testId]) => (
        <div key={testId}>
          <dt>{label}</dt>
          <dd data-testid={testId}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The allocation rule and the lock, with a worked example from this project's own numbers. */
function Rules({ detail }: { detail: IssueDetail }) {
  const { t } = useTranslation();
  const format = useFormatDecimal();
  const formatTime = useFormatTime('medium');
  const p = detail.project;
  const q = detail.quote;
  const n = (value: string, decimals = 4) => format(value, decimals);
  return (
    <section className="lp-section" data-testid="allocation-rule">
      <h2>{t('launchpad.ruleTitle')}</h2>
      <p>
        {p.mode === 'pro_rata'
          ? t('launchpad.rule.pro_rata', {
              end: formatTime(p.end_at),
              supply: n(p.total_issue, 0),
              coin: p.coin,
              limit: n(p.individual_limit),
            })
          : t('launchpad.rule.fcfs', { limit: n(p.individual_limit), coin: p.coin })}
      </p>
      <p>{t('launchpad.lockRule', { release: formatTime(p.release_at), days: p.lock_days })}</p>
      <p className="lp-example" data-testid="worked-example">
        {t(p.mode === 'pro_rata' ? 'launchpad.example.pro_rata' : 'launchpad.example.fcfs', {
          quantity: n(q.quantity),
          coin: p.coin,
          cost: n(q.cost, 2),
          quote: p.quote,
          demand: n(p.subscribed, 0),
          expected: n(q.expected_quantity),
          paid: n(q.expected_paid, 2),
          refund: n(q.expected_refund, 2),
          release: formatTime(p.release_at),
        })}
      </p>
      {p.soft_cap !== '0.00000000' && (
        <p>{t('launchpad.softCap', { amount: n(p.soft_cap, 2), quote: p.quote })}</p>
      )}
    </section>
  );
}

function SubscribeForm({
  detail,
  num,
  onNum,
}: {
  detail: IssueDetail;
  num: string;
  onNum: (v: string) => void;
}) {
  const { t } = useTranslation();
  const p = detail.project;
  const available = useAvailable(p.quote);
  const subscribe = useSubscribe();
  const [isConfirming, setConfirming] = useState(false);
  const [key, setKey] = useState(() => crypto.randomUUID());
  const isOpen = p.state === 'open';
  const bought = detail.mine.records >= p.max_purchases;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!num || !/[1-9]/.test(num)) return void showToast(t('launchpad.enterQuantity'));
    setConfirming(true);
  }

  function confirm() {
    subscribe.mutate(
      { id: p.id, num, key },
      {
        onSuccess: (answer) => {
          setConfirming(false);
          setKey(crypto.randomUUID());
          showToast(answer.msg, 'success');
        },
        onError: () => setConfirming(false),
      },
    );
  }

  if (!isOpen) {
    return (
      <section className="lp-section">
        <p data-testid="subscribe-closed">{t(`launchpad.closedNote.${p.state}`)}</p>
      </section>
    );
  }
  return (
    <section className="lp-section">
      <h2>{t('launchpad.subscribe')}</h2>
      <form className="lp-form" onSubmit={submit} noValidate>
        <AmountInput
          label={t('launchpad.quantity', { coin: p.coin })}
          value={num}
          onChange={onNum}
          decimals={QTY_DECIMALS}
          testId="subscribe-quantity"
          hint={t('launchpad.bounds', {
            min: trimDecimal(p.per_min),
            max: trimDecimal(p.per_max),
            coin: p.coin,
          })}
        />
        <div className="lp-form-meta">
          <span>{t('launchpad.available')}</span>
          <span data-testid="subscribe-available">
            {available.data ? <Amount value={available.data.available} decimals={2} unit={p.quote} /> : '—'}
          </span>
        </div>
        <div className="lp-form-meta">
          <span>{t('launchpad.cost')}</span>
          <span data-testid="subscribe-cost">
            <Amount value={detail.quote.cost} decimals={2} unit={p.quote} />
          </span>
        </div>
        <div className="lp-form-meta">
          <span>{t('launchpad.expected')}</span>
          <span data-testid="subscribe-expected">
            <Amount value={detail.quote.expected_quantity} decimals={4} unit={p.coin} />
          </span>
        </div>
        {bought ? (
          <p className="lp-warning" data-testid="subscribe-done">
            {t('launchpad.alreadyBought')}
          </p>
        ) : (
          <SubmitButton isBusy={subscribe.isPending} testId="subscribe-submit">
            {t('launchpad.subscribe')}
          </SubmitButton>
        )}
        <p className="lp-warning">{t('launchpad.risk')}</p>
      </form>
      <Popup visible={isConfirming} onMaskClick={() => setConfirming(false)} bodyStyle={{ padding: 20 }}>
        <h2 className="lp-confirm-title">{t('launchpad.confirmTitle')}</h2>
        <dl className="lp-rows">
          <div>
            <dt>{t('launchpad.quantityShort')}</dt>
            <dd>
              <Amount value={detail.quote.quantity} decimals={4} unit={p.coin} />
            </dd>
          </div>
          <div>
            <dt>{t(p.mode === 'pro_rata' ? 'launchpad.frozenNow' : 'launchpad.paidNow')}</dt>
            <dd>
              <Amount value={detail.quote.cost} decimals={2} unit={p.quote} />
            </dd>
          </div>
          <div>
            <dt>{t('launchpad.releaseAt')}</dt>
            <dd className="num">{new Date(p.release_at).toISOString().slice(0, 16).replace('T', ' ')} UTC</dd>
          </div>
        </dl>
        <Button
          block
          color="primary"
          size="large"
          loading={subscribe.isPending}
          onClick={confirm}
          data-testid="subscribe-confirm"
          style={{ marginTop: 16 }}
        >
          {t('common.confirm')}
        </Button>
      </Popup>
    </section>
  );
}

/**
 * `/Issue/details?id=`: a project's terms, how allocation and the lock work (with a worked example
 * from its own numbers), the amount entry with its limits and the expected allocation, and the
 * user's own subscriptions.
 */
export default function ProjectDetailPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const [num, setNum] = useState('');
  const settled = useSettled(num, 300);
  const project = useProject(id, settled && /[1-9]/.test(settled) ? settled : '');
  const detail = project.data;
  return (
    <Page title={detail?.project.name ?? t('launchpad.title')}>
      {project.isPending ? (
        <ListSkeleton rows={5} />
      ) : project.isError || !detail ? (
        <ErrorState message={project.error?.message} onRetry={() => project.refetch()} />
      ) : (
        <>
          <section className="lp-section" data-testid="project-head">
            <div className="lp-card-head">
              <div className="lp-card-title">
                <span className="lp-coin" aria-hidden="true">
                  {detail.project.coin.slice(0, 4)}
                </span>
                <div>
                  <div className="lp-name">{detail.project.name}</div>
                  <div className="lp-sub">
                    {detail.project.coin} · {t(`launchpad.mode.${detail.project.mode}`)}
                  </div>
                </div>
              </div>
              <StateTag state={detail.project.state} testId="project-state" />
            </div>
            {detail.project.description && <p className="lp-description">{detail.project.description}</p>}
            <Progress project={detail.project} />
            <Countdown project={detail.project} />
          </section>
          <SubscribeForm detail={detail} num={num} onNum={setNum} />
          <Rules detail={detail} />
          <section className="lp-section">
            <h2>{t('launchpad.terms')}</h2>
            <Terms detail={detail} />
          </section>
          {detail.mine.records > 0 && (
            <section className="lp-section" data-testid="my-subscription">
              <h2>{t('launchpad.mine')}</h2>
              <p>
                {t('launchpad.mineText', {
                  requested: trimDecimal(detail.mine.requested),
                  quantity: trimDecimal(detail.mine.quantity),
                  coin: detail.project.coin,
                })}
              </p>
              <Link to={PATHS.issueLog} className="lp-link">
                {t('launchpad.records')}
              </Link>
            </section>
          )}
        </>
      )}
    </Page>
  );
}
