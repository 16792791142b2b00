import type { IndexTick, KlineInterval } from '@bourse/shared/api';
import type { CandlestickData, ISeriesApi, LineData, UTCTimestamp } from 'lightweight-charts';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useUpDownMode } from '../../../shared/preferences/up-down.ts';
import {
  candleColours,
  PriceChartFrame,
  seriesPrice,
  toBar,
  token,
  usePriceChart,
} from '../../../shared/ui/price-chart.tsx';
import { useIndexHistory } from '../api/get-index-history.ts';
import { useKline } from '../api/get-kline.ts';
import { useKlineStream, useTickStream } from '../api/subscribe-index.ts';

/** The views a phone trader switches between: the tick line, then candles of four intervals. */
export const CHART_INTERVALS = ['line', '1m', '5m', '15m', '1h'] as const satisfies readonly (
  | KlineInterval
  | 'line'
)[];
type ChartView = (typeof CHART_INTERVALS)[number];

const INTERVAL_KEYS: Record<ChartView, string> = {
  line: 'delivery.chart.line',
  '1m': 'delivery.chart.m1',
  '5m': 'delivery.chart.m5',
  '15m': 'delivery.chart.m15',
  '1h': 'delivery.chart.h1',
};

type Series = ISeriesApi<'Candlestick'> | ISeriesApi<'Line'>;

/** Ticks as line points: one per second (the last of it), as the chart needs ascending times. */
function toPoints(ticks: readonly IndexTick[]): LineData<UTCTimestamp>[] {
  const points: LineData<UTCTimestamp>[] = [];
  for (const tick of ticks) {
    const point = { time: Math.floor(tick.at / 1000) as UTCTimestamp, value: Number(tick.price) };
    if (points.at(-1)?.time === point.time) points[points.length - 1] = point;
    else points.push(point);
  }
  return points;
}

/**
 * The live index chart: the line of the recorded ticks (`/Market/index`, then `index:<symbol>`),
 * or candles of the chosen interval (`/Market/kline`, then `kline:<symbol>:<interval>`). The
 * charting library is fetched when the chart first shows, so it never joins the app's first load.
 */
export function IndexChart({ symbol, decimals, label }: { symbol: string; decimals: number; label: string }) {
  const { t } = useTranslation();
  const [view, setView] = useState<ChartView>('line');
  const isLine = view === 'line';
  const interval: KlineInterval = isLine ? '1m' : view;
  const ticks = useIndexHistory(symbol, isLine);
  const candles = useKline(symbol, interval, !isLine);
  const history = isLine ? ticks : candles;
  const containerRef = useRef<HTMLDivElement>(null);
  const { chartRef, libraryRef, isReady, isLibraryFailed } = usePriceChart(
    containerRef,
    decimals,
    history.isSuccess,
    { hasSeconds: isLine },
  );
  const seriesRef = useRef<Series | null>(null);
  const lastTime = useRef(0);
  const [seriesKey, setSeriesKey] = useState(0);
  const mode = useUpDownMode();

  // why: one series at a time, of the kind the view draws; the colours follow the preference.
  useEffect(() => {
    const chart = chartRef.current;
    const library = libraryRef.current;
    if (!isReady || !chart || !library || !mode) return;
    const price = seriesPrice(decimals);
    const series: Series = isLine
      ? chart.addSeries(library.LineSeries, {
          color: token('--bourse-accent'),
          lineWidth: 2,
          ...price,
        })
      : chart.addSeries(library.CandlestickSeries, { ...candleColours(), ...price });
    seriesRef.current = series;
    lastTime.current = 0;
    setSeriesKey((key) => key + 1);
    return () => {
      seriesRef.current = null;
      // why: when the page leaves, the chart is removed first, and its series with it.
      if (chartRef.current === chart) chart.removeSeries(series);
    };
  }, [isReady, isLine, decimals, mode, chartRef, libraryRef]);

  useEffect(() => {
    const series = seriesRef.current;
    if (!seriesKey || !series) return;
    const points = isLine ? toPoints(ticks.data ?? []) : (candles.data ?? []).map(toBar);
    (series as ISeriesApi<'Line' | 'Candlestick'>).setData(points);
    lastTime.current = points.at(-1)?.time ?? 0;
    chartRef.current?.timeScale().scrollToRealTime();
  }, [seriesKey, isLine, ticks.data, candles.data, chartRef]);

  /** Adds or replaces the newest point; the library refuses one older than the last (a late push). */
  function push(point: LineData<UTCTimestamp> | CandlestickData<UTCTimestamp>) {
    const series = seriesRef.current;
    if (!series || !history.data || point.time < lastTime.current) return;
    (series as ISeriesApi<'Line' | 'Candlestick'>).update(point);
    lastTime.current = point.time;
  }

  useTickStream(symbol, (tick) => {
    if (isLine) push(toPoints([tick])[0]!);
  });
  useKlineStream(`kline:${symbol}:${interval}`, (update) => {
    if (!isLine && update.symbol === symbol && update.interval === interval) push(toBar(update.candle));
  });

  return (
    <PriceChartFrame
      className="index-chart"
      containerRef={containerRef}
      intervals={CHART_INTERVALS}
      active={view}
      onSelect={setView}
      intervalLabel={(each) => t(INTERVAL_KEYS[each])}
      legend={t('delivery.chart.interval')}
      label={label}
      testId="index-chart"
      isReady={isReady}
      isLibraryFailed={isLibraryFailed}
      data={{
        isSuccess: history.isSuccess,
        isPending: history.isPending,
        isError: history.isError,
        isEmpty: history.isSuccess && history.data.length === 0,
        retry: () => history.refetch(),
      }}
      failedText={t('delivery.chart.failed')}
      emptyText={t('delivery.chart.empty')}
    />
  );
}
