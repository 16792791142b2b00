import '../components/perp.css';
import type { PerpMarket, PerpOrderDetail } from '@bourse/shared/api';
import Button from 'antd-mobile/es/components/button';
import Skeleton from 'antd-mobile/es/components/skeleton';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useFormatPercent } from '../../../shared/format/format-percent.ts';
import { useFormatTime } from '../../../shared/format/format-time.ts';
import { Amount } from '../../../shared/ui/amount.tsx';
import { Page } from '../../../shared/ui/page.tsx';
import { EmptyState, ErrorState } from '../../../shared/ui/state-block.tsx';
import { showToast } from '../../../shared/ui/toast.ts';
import { useCancelPerpOrder } from '../api/cancel-order.ts';
import { usePerpOrder } from '../api/get-order.ts';
import { usePerpMarkets } from '../api/get-perp-markets.ts';
import {
  pairLabel,
  priceLabelKey,
  SideTag,
  StatusTag,
  useEndReasonLabel,
  useStateLabel,
  useTriggerText,
  useTypeLabel,
} from '../components/labels.tsx';
import { hasLimitPrice, plainPercent } from '../components/perp-math.ts';

interface Row {
  label: string;
  value: ReactNode;
  testId: string;
}

function Rows({ rows }: { rows: readonly Row[] }) {
  return (
    <dl className="perp-detail">
      {rows.map((row) => (
        <div key={row.testId}>
          <dt>{row.label}</dt>
          <dd data-testid={row.testId}>{row.value}</dd>
        </div>
      ))}
    </dl>
  );
}

function OrderView({
  order,
  markets,
}: {
  order: PerpOrderDetail;
  markets: readonly PerpMarket[] | undefined;
}) {
  const { t } = useTranslation();
  const typeLabel = useTypeLabel();
  const stateLabel = useStateLabel();
  const endLabel = useEndReasonLabel();
  const triggerText = useTriggerText();
  const formatTime = useFormatTime('medium');
  const cancel = useCancelPerpOrder();
  const market = markets?.find((each) => each.symbol === order.symbol);
  const priceDecimals = market?.price_decimals ?? 8;
  const qtyDecimals = market?.qty_decimals ?? 8;
  const quote = market?.quote ?? '';
  const base = market?.base ?? '';
  const formatPercent = useFormatPercent();
  const degree = plainPercent(order.degree);
  /**
   * Before its first fill, the rate the order will pay: a market order takes liquidity, a limit
   * order resting in the book makes it, and a limit order still waiting for its trigger may do
   * either. An order that ended unfilled paid nothing.
   */
  function feeRateBeforeFill(): string {
    if (!market || order.status !== 'entrusted') return '—';
    const maker = `${formatPercent.ratio(market.maker_fee, { decimals: 4 })} (${t('perp.fills.maker')})`;
    const taker = `${formatPercent.ratio(market.taker_fee, { decimals: 4 })} (${t('perp.fills.taker')})`;
    if (!hasLimitPrice(order.type)) return taker;
    return order.state === 'untriggered' ? `${maker} / ${taker}` : maker;
  }
  const rows: Row[] = [
    { label: t('perp.order.type'), value: typeLabel(order.type), testId: 'perp-detail-type' },
    {
      label: t(priceLabelKey(order.type)),
      value: order.price ? (
        <Amount value={order.price} decimals={priceDecimals} unit={quote} />
      ) : (
        t('perp.form.marketShort')
      ),
      testId: 'perp-detail-price',
    },
    {
      label: t('perp.order.qty'),
      value: <Amount value={order.qty} decimals={qtyDecimals} unit={base} />,
      testId: 'perp-detail-qty',
    },
    {
      label: t('perp.order.filled'),
      value: <Amount value={order.filled_qty} decimals={qtyDecimals} unit={base} />,
      testId: 'perp-detail-filled',
    },
    {
      label: t('perp.order.avgPrice'),
      value: order.avg_price ? <Amount value={order.avg_price} decimals={priceDecimals} unit={quote} /> : '—',
      testId: 'perp-detail-avg',
    },
    {
      label: t('perp.order.turnover'),
      value: <Amount value={order.turnover} decimals={8} unit={quote} />,
      testId: 'perp-detail-turnover',
    },
    {
      label: t('perp.order.fee'),
      value: <Amount value={order.fee} decimals={8} unit={quote} />,
      testId: 'perp-detail-fee',
    },
    {
      label: t('perp.order.feeRatio'),
      value: order.fee_ratio ? formatPercent.ratio(order.fee_ratio, { decimals: 4 }) : feeRateBeforeFill(),
      testId: 'perp-detail-fee-ratio',
    },
    {
      label: t('perp.order.triggerCondition'),
      value: triggerText(order, priceDecimals) ?? '—',
      testId: 'perp-detail-trigger',
    },
    { label: t('perp.order.leverage'), value: `${order.leverage}x`, testId: 'perp-detail-leverage' },
    {
      label: t('perp.order.reduceOnly'),
      value: t(order.reduce_only || order.close_position ? 'perp.yes' : 'perp.no'),
      testId: 'perp-detail-reduce-only',
    },
    { label: t('perp.order.state'), value: stateLabel(order.state), testId: 'perp-detail-state' },
    ...(order.end_reason
      ? [{ label: t('perp.order.endReason'), value: endLabel(order.end_reason), testId: 'perp-detail-end' }]
      : []),
    { label: t('perp.order.createdAt'), value: formatTime(order.created_at), testId: 'perp-detail-created' },
    { label: t('perp.order.updatedAt'), value: formatTime(order.updated_at), testId: 'perp-detail-updated' },
    { label: t('perp.order.id'), value: order.id, testId: 'perp-detail-id' },
  ];
  return (
    <>
      <section className="perp-position-head" aria-label={t('perp.order.title')}>
        <SideTag side={order.side} testId="perp-detail-side" />
        <span>{pairLabel(order.symbol, markets)}</span>
        <StatusTag status={order.status} testId="perp-detail-status" />
      </section>
      <div className="perp-row-head">
        <span className="perp-muted">{t('perp.order.completion')}</span>
        <span
          className="perp-completion"
          role="progressbar"
          aria-label={t('perp.order.completion')}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Number(degree)}
        >
          <span style={{ width: `${Math.min(100, Math.max(0, Number(degree)))}%` }} />
        </span>
        <span className="num" data-testid="perp-detail-degree">
          {formatPercent.ratio(order.degree)}
        </span>
      </div>
      <Rows rows={rows} />
      {order.status === 'entrusted' && (
        <Button
          block
          size="large"
          fill="outline"
          color="danger"
          style={{ marginTop: 16 }}
          loading={cancel.isPending}
          disabled={cancel.isPending}
          onClick={() => cancel.mutate(order.id, { onSuccess: (body) => showToast(body.msg, 'success') })}
          data-testid="perp-detail-cancel"
        >
          {t('perp.order.cancel')}
        </Button>
      )}
      <h2 className="perp-section-title">{t('perp.fills.title')}</h2>
      {order.fills.length === 0 ? (
        <p className="perp-empty" data-testid="perp-fills-empty">
          {t('perp.fills.empty')}
        </p>
      ) : (
        <ul className="perp-list" data-testid="perp-fills">
          {order.fills.map((fill) => (
            <li key={fill.id} className="perp-row">
              <div className="perp-row-body">
                <span className="perp-row-head">
                  <span>{t(fill.role === 'maker' ? 'perp.fills.maker' : 'perp.fills.taker')}</span>
                  <span className="perp-muted num">{formatTime(fill.at)}</span>
                </span>
                <dl className="perp-row-grid">
                  <div>
                    {/* why: a fill's price is what it traded at, no limit */}
                    <dt>{t('perp.form.price', { coin: quote })}</dt>
                    <dd>
                      <Amount value={fill.price} decimals={priceDecimals} />
                    </dd>
                  </div>
                  <div>
                    <dt>{t('perp.order.qty')}</dt>
                    <dd>
                      <Amount value={fill.qty} decimals={qtyDecimals} />
                    </dd>
                  </div>
                  <div>
                    <dt>{t('perp.order.fee')}</dt>
                    <dd>
                      <Amount value={fill.fee} decimals={8} />
                    </dd>
                  </div>
                </dl>
              </div>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/**
 * `Trade/transinfo?id=…`: one perpetual order as the spec shows it — price, quantity, turnover,
 * fee and fee ratio, trigger condition, limit price, completion degree, status — and its fills.
 */
export default function PerpOrderDetailPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const order = usePerpOrder(/^[1-9]\d{0,18}$/.test(id) ? id : '');
  const markets = usePerpMarkets();

  let content: ReactNode;
  if (!/^[1-9]\d{0,18}$/.test(id)) content = <EmptyState message={t('perp.order.notFound')} />;
  else if (order.isPending)
    content = (
      <div aria-busy="true">
        <Skeleton.Paragraph lineCount={8} animated />
      </div>
    );
  else if (order.isError)
    content = <ErrorState message={order.error.message} onRetry={() => order.refetch()} />;
  else content = <OrderView order={order.data} markets={markets.data} />;

  return (
    <Page title={t('perp.order.title')} className="perp-page perp-detail-page">
      <div data-testid="perp-order-detail">{content}</div>
    </Page>
  );
}
