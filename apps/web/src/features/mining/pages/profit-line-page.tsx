import '../components/mining.css';
import type { IChartApi } from 'lightweight-charts';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Amount } from '../../../shared/ui/amount.tsx';
import { ListSkeleton } from '../../../shared/ui/list-skeleton.tsx';
import { Page } from '../../../shared/ui/page.tsx';
import { EmptyState, ErrorState } from '../../../shared/ui/state-block.tsx';
import { useProfitLine } from '../api/mining.ts';

function token(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
}

/** A coin's running total of output, one point a day (lightweight-charts, fetched when shown). */
function Curve({ points }: { points: { day: number; total: string }[] }) {
  const ref = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let chart: IChartApi | null = null;
    let disposed = false;
    import('lightweight-charts').then(
      (library) => {
        const element = ref.current;
        if (disposed || !element) return;
        const grid = token('--bourse-border');
        chart = library.createChart(element, {
          autoSize: true,
          layout: {
            background: { type: library.ColorType.Solid, color: 'transparent' },
            textColor: token('--bourse-text-muted'),
            fontSize: 11,
            attributionLogo: false,
          },
          grid: { vertLines: { color: grid }, horzLines: { color: grid } },
          rightPriceScale: { borderColor: grid },
          timeScale: { borderColor: grid },
          handleScale: false,
          handleScroll: false,
        });
        const series = chart.addSeries(library.AreaSeries, {
          lineColor: '#f0b90b',
          topColor: 'rgba(240, 185, 11, 0.35)',
          bottomColor: 'rgba(240, 185, 11, 0.02)',
          priceFormat: { type: 'price', precision: 8, minMove: 0.00000001 },
        });
        series.setData(
          points.map((p) => ({
            time: (p.day / 1000) as import('lightweight-charts').UTCTimestamp,
            value: Number(p.total),
          })),
        );
        chart.timeScale().fitContent();
      },
      () => setFailed(true),
    );
    return () => {
      disposed = true;
      chart?.remove();
    };
  }, [points]);
  if (failed) return null;
  return <div ref={ref} className="mn-chart" data-testid="profit-chart" />;
}

/** `/Orepool/profitline`: the profit curve: output accumulated day by day, per output coin. */
export default function ProfitLinePage() {
  const { t } = useTranslation();
  const line = useProfitLine();
  return (
    <Page title={t('mining.profitLine')}>
      {line.isPending ? (
        <ListSkeleton rows={3} />
      ) : line.isError ? (
        <ErrorState message={line.error.message} onRetry={() => line.refetch()} />
      ) : line.data.series.length === 0 ? (
        <EmptyState message={t('mining.noProfits')} testId="curve-empty" />
      ) : (
        line.data.series.map((s) => (
          <section key={s.coin} className="mn-section" data-testid={`curve-${s.coin}`}>
            <h2>
              {s.coin} · {t('mining.total')} <Amount value={s.points.at(-1)?.total ?? '0'} unit={s.coin} />
            </h2>
            <Curve points={s.points} />
          </section>
        ))
      )}
    </Page>
  );
}
