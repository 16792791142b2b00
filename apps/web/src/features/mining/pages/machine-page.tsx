import { fromAtoms, toAtoms } from '@bourse/shared';
import '../components/mining.css';
import type { MiningOrder, MiningProductDetail } from '@bourse/shared/api';
import Button from 'antd-mobile/es/components/button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { copyText } from '../../../shared/copy-text.ts';
import { useFormatPlainDecimal } from '../../../shared/format/format-decimal.ts';
import { basisPointsPercent, useFormatPercent } from '../../../shared/format/format-percent.ts';
import { PATHS } from '../../../shared/paths.ts';
import { Amount } from '../../../shared/ui/amount.tsx';
import { ListSkeleton } from '../../../shared/ui/list-skeleton.tsx';
import { Page } from '../../../shared/ui/page.tsx';
import { ErrorState } from '../../../shared/ui/state-block.tsx';
import { showToast } from '../../../shared/ui/toast.ts';
import { useBuy, useMachine } from '../api/mining.ts';

/** The shares a buyer may pick: multiples of the step from the minimum up to what is left. */
function shareChoices(machine: MiningProductDetail): number[] {
  const left = machine.share?.left_bp ?? 10_000;
  const out: number[] = [];
  for (let bp = machine.min_share_bp; bp <= left; bp += machine.step_bp) out.push(bp);
  return out;
}

function shareLink(order: MiningOrder): string {
  return `${window.location.origin}/#${PATHS.miningDetail}?id=${order.product_id}&share=${order.share_code}`;
}

/**
 * `/Orepool/kjinfo?id=…&share=…`: a machine's fee breakdown, expected output and break-even
 * price, "output is not guaranteed", and the purchase: a whole machine, or a share (through a
 * first buyer's link, the rest of that machine). After buying a shared machine, its link.
 */
export default function MachinePage() {
  const { t } = useTranslation();
  const plain = useFormatPlainDecimal();
  const formatPercent = useFormatPercent();
  const sharePercent = (bp: number) => plain(basisPointsPercent(bp));
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const share = params.get('share') ?? '';
  const machine = useMachine(id, share);
  const buy = useBuy();
  const [shareBp, setShareBp] = useState<number | null>(null);
  const [key, setKey] = useState(() => crypto.randomUUID());
  const [bought, setBought] = useState<MiningOrder | null>(null);
  const m = machine.data;
  const choices = m && m.type === 'shared' ? shareChoices(m) : [];
  const chosen = m?.type === 'sole' ? 10_000 : (shareBp ?? choices[0] ?? 0);
  // why: money stays exact: the share's price in atoms, rounded up as the server charges it.
  const price = m ? fromAtoms((toAtoms(m.price) * BigInt(chosen) + 9_999n) / 10_000n) : '0';

  function submit() {
    if (!m) return;
    buy.mutate(
      { id: m.id, shareBp: chosen, share, key },
      {
        onSuccess: (answer) => {
          setKey(crypto.randomUUID());
          setBought(answer.data);
          showToast(answer.msg, 'success');
        },
      },
    );
  }

  return (
    <Page title={m?.name ?? t('mining.title')}>
      {machine.isPending ? (
        <ListSkeleton rows={5} />
      ) : machine.isError || !m ? (
        <ErrorState message={machine.error?.message} onRetry={() => machine.refetch()} />
      ) : (
        <>
          <section className="mn-section" data-testid="machine-head">
            <div className="mn-head">
              <div>
                <div className="mn-name">{m.name}</div>
                <div className="mn-sub">
                  {t(`mining.type.${m.type}`)} · {t(`mining.income.${m.income_type}`)} · {m.coin}
                </div>
              </div>
              <span className={`mn-tag is-${m.status}`}>{t(`mining.status.${m.status}`)}</span>
            </div>
            <p className="mn-warning" data-testid="not-guaranteed">
              {t('mining.notGuaranteed')}
            </p>
          </section>
          <section className="mn-section">
            <h2>{t('mining.fees')}</h2>
            <dl className="mn-rows">
              <div>
                <dt>{t('mining.feeHashrate')}</dt>
                <dd>
                  <Amount value={m.fees.hashrate} decimals={2} unit="USDT" />
                </dd>
              </div>
              <div>
                <dt>
                  {t('mining.feeElectricity', {
                    days: m.days,
                    perDay: plain(m.fees.electricity_day),
                  })}
                </dt>
                <dd>
                  <Amount value={m.fees.electricity_total} decimals={2} unit="USDT" />
                </dd>
              </div>
              <div>
                <dt>{t('mining.feeManagement')}</dt>
                <dd>
                  <Amount value={m.fees.management} decimals={2} unit="USDT" />
                </dd>
              </div>
              <div>
                <dt>{t('mining.price')}</dt>
                <dd data-testid="machine-price">
                  <Amount value={m.price} decimals={2} unit="USDT" />
                </dd>
              </div>
            </dl>
          </section>
          <section className="mn-section">
            <h2>{t('mining.output')}</h2>
            <dl className="mn-rows">
              <div>
                <dt>{t('mining.dailyOutput')}</dt>
                <dd data-testid="machine-daily">
                  <Amount value={m.daily_output} unit={m.coin} />
                </dd>
              </div>
              <div>
                <dt>{t('mining.days')}</dt>
                <dd>{t('mining.daysValue', { value: m.days })}</dd>
              </div>
              <div>
                <dt>{t('mining.breakEven')}</dt>
                <dd data-testid="machine-break-even">
                  {m.break_even ? <Amount value={m.break_even} decimals={2} unit={`USDT/${m.coin}`} /> : '—'}
                </dd>
              </div>
              <div>
                <dt>{t('mining.releaseDelay')}</dt>
                <dd>{t('mining.daysValue', { value: m.release_delay_days })}</dd>
              </div>
              <div>
                <dt>{t('mining.capacityLeft')}</dt>
                <dd>
                  <Amount value={m.capacity_left} decimals={2} /> / {m.capacity}
                </dd>
              </div>
            </dl>
            <p className="mn-sub">
              {m.income_type === 'value'
                ? t('mining.valueRule', {
                    value: plain(m.daily_value),
                    coin: m.coin,
                  })
                : t('mining.constantRule', { coin: m.coin })}
            </p>
          </section>
          <section className="mn-section">
            <h2>{t('mining.buy')}</h2>
            {m.type === 'shared' && (
              <>
                <p className="mn-sub">
                  {share && m.share
                    ? t('mining.shareLeft', { left: sharePercent(m.share.left_bp) })
                    : t('mining.shareNew', {
                        min: sharePercent(m.min_share_bp),
                        step: sharePercent(m.step_bp),
                      })}
                </p>
                <div className="mn-shares" data-testid="share-choices">
                  {choices.map((bp) => (
                    <Button
                      key={bp}
                      size="small"
                      color={bp === chosen ? 'primary' : 'default'}
                      onClick={() => setShareBp(bp)}
                      data-testid={`share-${bp}`}
                    >
                      {formatPercent.percent(basisPointsPercent(bp), { decimals: bp % 100 === 0 ? 0 : 2 })}
                    </Button>
                  ))}
                </div>
              </>
            )}
            <dl className="mn-rows">
              <div>
                <dt>{t('mining.pay')}</dt>
                <dd data-testid="buy-price">
                  <Amount value={price} decimals={2} unit="USDT" />
                </dd>
              </div>
            </dl>
            <Button
              block
              color="primary"
              size="large"
              loading={buy.isPending}
              disabled={m.status !== 'normal' || chosen === 0}
              onClick={submit}
              data-testid="buy-submit"
              style={{ marginTop: 12 }}
            >
              {t('mining.buy')}
            </Button>
            {bought?.share_code && (
              <div className="mn-share-link" data-testid="share-link">
                <p className="mn-sub">{t('mining.shareLinkNote')}</p>
                <Button
                  size="small"
                  onClick={() =>
                    void copyText(shareLink(bought)).then((ok) =>
                      showToast(t(ok ? 'common.copied' : 'common.copyFailed'), ok ? 'success' : 'fail'),
                    )
                  }
                >
                  {t('mining.copyShareLink')}
                </Button>
              </div>
            )}
          </section>
        </>
      )}
    </Page>
  );
}
