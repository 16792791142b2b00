import '../components/spot.css';
import type { SpotMarket, SpotOrderDetail } from '@bourse/shared/api';
import Skeleton from 'antd-mobile/es/components/skeleton';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useFormatTime } from '../../../shared/format/format-time.ts';
import { Amount } from '../../../shared/ui/amount.tsx';
import { Page } from '../../../shared/ui/page.tsx';
import { ErrorState } from '../../../shared/ui/state-block.tsx';
import { useSpotMarkets } from '../api/get-spot-markets.ts';
import { useOrder } from '../api/orders.ts';
import {
  OrderStatusTag,
  pairLabel,
  SideTag,
  TriggerConditionText,
  usePercent,
  useTypeLabel,
} from '../components/labels.tsx';
import { completionWidth, feePercent } from '../components/order-math.ts';

interface Row {
  label: string;
  value: ReactNode;
  testId: string;
}

function Rows({ rows }: { rows: readonly Row[] }) {
  return (
    <dl className="detail-list">
      {rows.map((row) => (
        <div key={row.testId} className="spot-detail-row">
          <dt>{row.label}</dt>
          <dd data-testid={row.testId}>{row.value}</dd>
        </div>
      ))}
    </dl>
  );
}

const REVOKE_REASONS = ['user', 'unfilled', 'fok', 'post_only', 'self_trade', 'halt', 'trigger_out_of_band'];

function OrderView({ order, market }: { order: SpotOrderDetail; market: SpotMarket | undefined }) {
  const { t } = useTranslation();
  const typeLabel = useTypeLabel();
  const percent = usePercent();
  const formatTime = useFormatTime('medium');
  const priceDecimals = market?.price_decimals ?? 8;
  const qtyDecimals = market?.qty_decimals ?? 8;
  const base = market?.base ?? '';
  const quote = market?.quote ?? '';
  const reason = order.revoke_reason;
  return (
    <>
      <section className="spot-detail-hero">
        <div className="spot-detail-title">
          <SideTag side={order.side} testId="order-side" />
          <span>{pairLabel(order.symbol, market ? [market] : undefined)}</span>
          <OrderStatusTag status={order.status} testId="order-status" />
        </div>
        <div className="spot-detail-completion">
          <span className="completion-bar is-large" aria-hidden="true">
            <span style={{ width: `${completionWidth(order.completion)}%` }} />
          </span>
          <span className="num" data-testid="order-completion">
            {percent(order.completion)}
          </span>
        </div>
      </section>
      <Rows
        rows={[
          { label: t('spot.order.type'), value: typeLabel(order.type), testId: 'order-type' },
          ...(order.trigger_condition
            ? [
                {
                  label: t('spot.order.triggerCondition'),
                  value: <TriggerConditionText order={order} decimals={priceDecimals} />,
                  testId: 'order-trigger-condition',
                },
                {
                  label: t('spot.order.triggeredAt'),
                  value: order.triggered_at !== null ? formatTime(order.triggered_at) : '—',
                  testId: 'order-triggered-at',
                },
              ]
            : []),
          {
            label: t('spot.order.limitPrice'),
            value: order.price ? <Amount value={order.price} decimals={priceDecimals} unit={quote} /> : '—',
            testId: 'order-limit-price',
          },
          {
            label: t('spot.order.avgPrice'),
            value: order.avg_price ? (
              <Amount value={order.avg_price} decimals={priceDecimals} unit={quote} />
            ) : (
              '—'
            ),
            testId: 'order-avg-price',
          },
          {
            label: order.qty ? t('spot.order.qty') : t('spot.order.quoteAmount'),
            value: order.qty ? (
              <Amount value={order.qty} decimals={qtyDecimals} unit={base} />
            ) : (
              <Amount value={order.quote_amount ?? '0'} unit={quote} />
            ),
            testId: 'order-qty',
          },
          {
            label: t('spot.order.filled'),
            value: <Amount value={order.filled_qty} decimals={qtyDecimals} unit={base} />,
            testId: 'order-filled',
          },
          {
            label: t('spot.order.turnover'),
            value: <Amount value={order.turnover} unit={quote} />,
            testId: 'order-turnover',
          },
          {
            label: t('spot.order.fee'),
            value: <Amount value={order.fee} unit={order.fee_coin} />,
            testId: 'order-fee',
          },
          {
            label: t('spot.order.feeRatio'),
            value: <span className="num">{percent(feePercent(order.fee_ratio))}</span>,
            testId: 'order-fee-ratio',
          },
          {
            label: t('spot.order.completion'),
            value: <span className="num">{percent(order.completion)}</span>,
            testId: 'order-completion-row',
          },
          {
            label: t('spot.order.status'),
            value: <OrderStatusTag status={order.status} />,
            testId: 'order-status-row',
          },
          ...(reason
            ? [
                {
                  label: t('spot.order.revokeReason'),
                  value: REVOKE_REASONS.includes(reason) ? t(`spot.revoke.${reason}`) : reason,
                  testId: 'order-revoke-reason',
                },
              ]
            : []),
          { label: t('spot.order.createdAt'), value: formatTime(order.created_at), testId: 'order-created' },
          { label: t('spot.order.updatedAt'), value: formatTime(order.updated_at), testId: 'order-updated' },
          { label: t('spot.order.id'), value: <span className="num">{order.id}</span>, testId: 'order-id' },
        ]}
      />
      <section aria-labelledby="fills-title">
        <h2 className="section-title" id="fills-title">
          {t('spot.fills.title')}
        </h2>
        {order.fills.length === 0 ? (
          <p className="open-orders-empty" data-testid="fills-empty">
            {t('spot.fills.empty')}
          </p>
        ) : (
          <ul className="fill-list" data-testid="fills">
            {order.fills.map((fill) => (
              <li key={fill.id} className="fill-row">
                <span className="fill-time num">{formatTime(fill.at)}</span>
                <span className="fill-role">{t(`spot.fills.${fill.role}`)}</span>
                <span className="fill-figures">
                  <Amount value={fill.qty} decimals={qtyDecimals} unit={base} /> @{' '}
                  <Amount value={fill.price} decimals={priceDecimals} />
                </span>
                <span className="fill-fee">
                  {t('spot.order.fee')} <Amount value={fill.fee} unit={fill.fee_coin} />
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

/**
 * `Trade/billinfo?id=…` (white background): every field of one order — a trigger order's trigger
 * condition and when it fired, limit and average price, quantity, turnover, fee and fee ratio,
 * completion degree and status — and its fills.
 */
export default function OrderDetailPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const order = useOrder(params.get('id') ?? '');
  const markets = useSpotMarkets();
  const market = markets.data?.find((each) => each.symbol === order.data?.symbol);
  return (
    <Page title={t('spot.order.title')} className="spot-detail-page">
      {order.isPending ? (
        <Skeleton.Paragraph lineCount={10} animated />
      ) : order.isError || !order.data ? (
        <ErrorState message={order.error?.message} onRetry={() => order.refetch()} />
      ) : (
        <div data-testid="order-detail">
          <OrderView order={order.data} market={market} />
        </div>
      )}
    </Page>
  );
}
