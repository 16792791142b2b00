import '../components/mining.css';
import type { MiningOrder, MiningProduct } from '@bourse/shared/api';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { basisPointsPercent, useFormatPercent } from '../../../shared/format/format-percent.ts';
import { useFormatTime } from '../../../shared/format/format-time.ts';
import { PATHS } from '../../../shared/paths.ts';
import { Amount } from '../../../shared/ui/amount.tsx';
import { ListSkeleton } from '../../../shared/ui/list-skeleton.tsx';
import { Page } from '../../../shared/ui/page.tsx';
import { EmptyState, ErrorState } from '../../../shared/ui/state-block.tsx';
import { useMarket } from '../api/mining.ts';

function Machine({ product }: { product: MiningProduct }) {
  const { t } = useTranslation();
  return (
    <Link
      to={`${PATHS.miningDetail}?id=${product.id}`}
      className="mn-card"
      data-testid={`machine-${product.id}`}
    >
      <div className="mn-head">
        <div>
          <div className="mn-name">{product.name}</div>
          <div className="mn-sub">
            {t(`mining.type.${product.type}`)} · {t(`mining.income.${product.income_type}`)} · {product.coin}
          </div>
        </div>
        <span className={`mn-tag is-${product.status}`} data-testid={`machine-status-${product.id}`}>
          {t(`mining.status.${product.status}`)}
        </span>
      </div>
      <dl className="mn-facts">
        <div>
          <dt>{t('mining.price')}</dt>
          <dd>
            <Amount value={product.price} decimals={2} unit="USDT" />
          </dd>
        </div>
        <div>
          <dt>{t('mining.dailyOutput')}</dt>
          <dd>
            <Amount value={product.daily_output} unit={product.coin} />
          </dd>
        </div>
        <div>
          <dt>{t('mining.days')}</dt>
          <dd>{t('mining.daysValue', { value: product.days })}</dd>
        </div>
        <div>
          <dt>{t('mining.capacityLeft')}</dt>
          <dd>
            <Amount value={product.capacity_left} decimals={2} /> / {product.capacity}
          </dd>
        </div>
      </dl>
    </Link>
  );
}

function MyMachine({ order }: { order: MiningOrder }) {
  const { t } = useTranslation();
  const formatPercent = useFormatPercent();
  const formatTime = useFormatTime();
  return (
    <div className="mn-row" data-testid={`order-${order.id}`}>
      <span>
        {order.name}
        <span className="mn-row-meta">
          {' '}
          ·{' '}
          {formatPercent.percent(basisPointsPercent(order.share_bp), {
            decimals: order.share_bp % 100 === 0 ? 0 : 2,
          })}
        </span>
      </span>
      <span className="mn-row-meta">
        <span className={`mn-tag is-${order.status}`}>{t(`mining.orderStatus.${order.status}`)}</span>
        <br />
        {formatTime(order.start_at)} – {formatTime(order.expire_at)}
      </span>
    </div>
  );
}

/** `/Orepool/index`: the machines (price, daily output, days, capacity left, status) and mine. */
export default function MarketPage() {
  const { t } = useTranslation();
  const market = useMarket();
  return (
    <Page title={t('mining.title')}>
      <div className="mn-links">
        <Link to={PATHS.miningProfits} className="mn-link" data-testid="link-profits">
          {t('mining.profitList')}
        </Link>
        <Link to={PATHS.miningCurve} className="mn-link" data-testid="link-curve">
          {t('mining.profitLine')}
        </Link>
      </div>
      {market.isPending ? (
        <ListSkeleton rows={3} />
      ) : market.isError ? (
        <ErrorState message={market.error.message} onRetry={() => market.refetch()} />
      ) : (
        <>
          {market.data.list.length === 0 ? (
            <EmptyState message={t('mining.empty')} />
          ) : (
            <div className="mn-list" data-testid="machine-list">
              {market.data.list.map((p) => (
                <Machine key={p.id} product={p} />
              ))}
            </div>
          )}
          <section className="mn-section" data-testid="my-machines">
            <h2>{t('mining.mine')}</h2>
            {market.data.orders.length === 0 ? (
              <p className="mn-sub">{t('mining.noMachines')}</p>
            ) : (
              market.data.orders.map((o) => <MyMachine key={o.id} order={o} />)
            )}
          </section>
        </>
      )}
    </Page>
  );
}
