import '../components/mining.css';
import { useTranslation } from 'react-i18next';
import { useFormatPlainDecimal } from '../../../shared/format/format-decimal.ts';
import { useFormatTime } from '../../../shared/format/format-time.ts';
import { Amount } from '../../../shared/ui/amount.tsx';
import { ListSkeleton } from '../../../shared/ui/list-skeleton.tsx';
import { LoadMore } from '../../../shared/ui/load-more.tsx';
import { Page } from '../../../shared/ui/page.tsx';
import { EmptyState, ErrorState } from '../../../shared/ui/state-block.tsx';
import { useRevenues } from '../api/mining.ts';

/** `/Orepool/Profitlist`: each day's output, frozen until its release, then released. */
export default function ProfitListPage() {
  const { t } = useTranslation();
  const plain = useFormatPlainDecimal();
  const formatTime = useFormatTime();
  const revenues = useRevenues();
  const list = revenues.data?.pages.flatMap((p) => p.list) ?? [];
  return (
    <Page title={t('mining.profitList')}>
      {revenues.isPending ? (
        <ListSkeleton rows={4} />
      ) : revenues.isError ? (
        <ErrorState message={revenues.error.message} onRetry={() => revenues.refetch()} />
      ) : list.length === 0 ? (
        <EmptyState message={t('mining.noProfits')} testId="profits-empty" />
      ) : (
        <div data-testid="profit-list">
          {list.map((r) => (
            <div key={r.id} className="mn-row" data-testid={`profit-${r.id}`}>
              <span>
                {r.name}
                <br />
                <span className="mn-row-meta">{formatTime(r.day)}</span>
              </span>
              <span className="mn-row-meta">
                <Amount value={r.amount} unit={r.coin} />
                <br />
                <span
                  className={`mn-tag ${r.released ? 'is-normal' : 'is-waiting'}`}
                  data-testid={`profit-state-${r.id}`}
                >
                  {r.released ? t('mining.released') : t('mining.frozen')}
                </span>
                {r.price_used && (
                  <>
                    <br />
                    {t('mining.priceUsed', { price: plain(r.price_used) })}
                  </>
                )}
              </span>
            </div>
          ))}
          <LoadMore query={revenues} />
        </div>
      )}
    </Page>
  );
}
