import type { TradeKlineInterval } from '@bourse/shared/api';
import type { ISeriesApi } from 'lightweight-charts';
import { memo, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useUpDownMode } from '../../../shared/preferences/up-down.ts';
import {
  candleColours,
  PriceChartFrame,
  seriesPrice,
  toBar,
  usePriceChart,
} from '../../../shared/ui/price-chart.tsx';
import { useCandles } from '../api/live-market.ts';

/** The intervals a phone trader switches between. */
export const CANDLE_INTERVALS = [
  '1m',
  '5m',
  '15m',
  '1h',
  '4h',
  '1d',
] as const satisfies readonly TradeKlineInterval[];
type CandleInterval = (typeof CANDLE_INTERVALS)[number];

/**
 * The K-line of a spot market: candles of its own trades (`/Market/candles`) in the chosen
 * interval, the newest kept current. The charting library is fetched when the chart first
 * shows, so it never joins the app's first load.
 *
 * Memoised: the trade page renders again on every ticker push, the chart only for its own props.
 */
export const CandleChart = memo(function CandleChart({
  symbol,
  decimals,
  label,
}: {
  symbol: string;
  decimals: number;
  label: string;
}) {
  const { t } = useTranslation();
  const [interval, setInterval] = useState<CandleInterval>('15m');
  const candles = useCandles(symbol, interval);
  const containerRef = useRef<HTMLDivElement>(null);
  const { chartRef, libraryRef, isReady, isLibraryFailed } = usePriceChart(
    containerRef,
    decimals,
    candles.isSuccess,
  );
  const seriesRef = useRef<ISeriesApi<'Candlestick'> | null>(null);
  const shownRef = useRef<{ key: string; last: number }>({ key: '', last: 0 });
  const [seriesKey, setSeriesKey] = useState(0);
  const mode = useUpDownMode();

  // why: the colours follow the up/down preference, so a change of it draws the candles afresh.
  useEffect(() => {
    const chart = chartRef.current;
    const library = libraryRef.current;
    if (!isReady || !chart || !library || !mode) return;
    const series = chart.addSeries(library.CandlestickSeries, {
      ...candleColours(),
      ...seriesPrice(decimals),
    });
    seriesRef.current = series;
    shownRef.current = { key: '', last: 0 };
    setSeriesKey((key) => key + 1);
    return () => {
      seriesRef.current = null;
      // why: when the page leaves, the chart is removed first, and its series with it.
      if (chartRef.current === chart) chart.removeSeries(series);
    };
  }, [isReady, decimals, mode, chartRef, libraryRef]);

  // why: a new interval draws its candles afresh; a poll of the same one only moves the newest
  // candles, so the trader's zoom and scroll stay where they were.
  useEffect(() => {
    const series = seriesRef.current;
    if (!seriesKey || !series || !candles.data || candles.isPlaceholderData) return;
    const key = `${symbol}:${interval}`;
    const bars = candles.data.map(toBar);
    if (shownRef.current.key !== key) {
      series.setData(bars);
      chartRef.current?.timeScale().scrollToRealTime();
    } else {
      for (const bar of bars) if (bar.time >= shownRef.current.last) series.update(bar);
    }
    shownRef.current = { key, last: bars.at(-1)?.time ?? 0 };
  }, [seriesKey, candles.data, candles.isPlaceholderData, symbol, interval, chartRef]);

  return (
    <PriceChartFrame
      className="candle-chart"
      containerRef={containerRef}
      intervals={CANDLE_INTERVALS}
      active={interval}
      onSelect={setInterval}
      intervalLabel={(each) => t(`spot.chart.intervals.${each}`)}
      legend={t('spot.chart.interval')}
      label={label}
      testId="spot-chart"
      isReady={isReady}
      isLibraryFailed={isLibraryFailed}
      data={{
        isSuccess: candles.isSuccess,
        isPending: candles.isPending,
        isError: candles.isError,
        isEmpty: candles.isSuccess && !candles.isPlaceholderData && candles.data.length === 0,
        retry: () => candles.refetch(),
      }}
      failedText={t('spot.chart.failed')}
      emptyText={t('spot.chart.empty')}
    />
  );
});
