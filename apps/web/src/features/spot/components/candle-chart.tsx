import type { TradeCandle, TradeKlineInterval } from '@bourse/shared/api';
import Skeleton from 'antd-mobile/es/components/skeleton';
import type { CandlestickData, IChartApi, ISeriesApi, UTCTimestamp } from 'lightweight-charts';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDecimal } from '../../../shared/format/format-decimal.ts';
import { useUpDownMode } from '../../../shared/preferences/up-down.ts';
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

function toBar(candle: TradeCandle): CandlestickData<UTCTimestamp> {
  // why: the chart draws numbers; these are for the eye only, never for money.
  return {
    time: Math.floor(candle.t / 1000) as UTCTimestamp,
    open: Number(candle.o),
    high: Number(candle.h),
    low: Number(candle.l),
    close: Number(candle.c),
  };
}

function token(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
}

/**
 * The K-line of a spot market: candles of its own trades (`/Market/candles`) in the chosen
 * interval, the newest kept current. The charting library is fetched when the chart first
 * shows, so it never joins the app's first load.
 */
export function CandleChart({
  symbol,
  decimals,
  label,
}: {
  symbol: string;
  decimals: number;
  label: string;
}) {
  const { t, i18n } = useTranslation();
  const [interval, setInterval] = useState<CandleInterval>('15m');
  const candles = useCandles(symbol, interval);
  const containerRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<IChartApi | null>(null);
  const seriesRef = useRef<ISeriesApi<'Candlestick'> | null>(null);
  const shownRef = useRef<{ key: string; last: number }>({ key: '', last: 0 });
  const [isReady, setIsReady] = useState(false);
  const [isLibraryFailed, setIsLibraryFailed] = useState(false);
  const mode = useUpDownMode();
  const locale = i18n.language;

  useEffect(() => {
    let isDisposed = false;
    let chart: IChartApi | null = null;
    import('lightweight-charts').then(
      (library) => {
        const element = containerRef.current;
        if (isDisposed || !element) return;
        const grid = token('--bourse-border');
        const time = new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit' });
        const day = new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric' });
        const full = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
        const up = token('--bourse-up');
        const down = token('--bourse-down');
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
          timeScale: {
            borderColor: grid,
            timeVisible: true,
            secondsVisible: false,
            // why: times in the user's time zone and language, not the library's UTC.
            tickMarkFormatter: (value: number, type: number) =>
              (type <= 2 ? day : time).format(new Date(value * 1000)),
          },
          localization: {
            locale,
            timeFormatter: (value: number) => full.format(new Date(value * 1000)),
            priceFormatter: (price: number) => formatDecimal(price.toFixed(decimals), decimals, locale),
          },
          handleScale: { axisPressedMouseMove: false },
        });
        seriesRef.current = chart.addSeries(library.CandlestickSeries, {
          upColor: up,
          downColor: down,
          wickUpColor: up,
          wickDownColor: down,
          borderVisible: false,
          priceFormat: { type: 'price', precision: decimals, minMove: 1 / 10 ** decimals },
        });
        chartRef.current = chart;
        shownRef.current = { key: '', last: 0 };
        setIsReady(true);
      },
      () => setIsLibraryFailed(true),
    );
    return () => {
      isDisposed = true;
      chartRef.current = null;
      seriesRef.current = null;
      chart?.remove();
      setIsReady(false);
    };
    // why: the colours follow the up/down preference, so a change of it redraws the chart.
  }, [decimals, locale, mode]);

  // why: a new interval draws its candles afresh; a poll of the same one only moves the newest
  // candles, so the trader's zoom and scroll stay where they were.
  useEffect(() => {
    const series = seriesRef.current;
    if (!isReady || !series || !candles.data || candles.isPlaceholderData) return;
    const key = `${symbol}:${interval}`;
    const bars = candles.data.map(toBar);
    if (shownRef.current.key !== key) {
      series.setData(bars);
      chartRef.current?.timeScale().scrollToRealTime();
    } else {
      for (const bar of bars) if (bar.time >= shownRef.current.last) series.update(bar);
    }
    shownRef.current = { key, last: bars.at(-1)?.time ?? 0 };
  }, [isReady, candles.data, candles.isPlaceholderData, symbol, interval]);

  const isEmpty = candles.isSuccess && !candles.isPlaceholderData && candles.data.length === 0;
  return (
    <section className="candle-chart">
      <fieldset className="chart-intervals">
        <legend className="visually-hidden">{t('spot.chart.interval')}</legend>
        {CANDLE_INTERVALS.map((each) => (
          <button
            key={each}
            type="button"
            className={each === interval ? 'chart-interval is-active' : 'chart-interval'}
            aria-pressed={each === interval}
            onClick={() => setInterval(each)}
            data-testid={`chart-interval-${each}`}
          >
            {t(`spot.chart.intervals.${each}`)}
          </button>
        ))}
      </fieldset>
      <figure
        className="chart-frame"
        aria-label={label}
        data-testid="spot-chart"
        data-ready={isReady && candles.isSuccess}
      >
        <div ref={containerRef} className="chart-canvas" />
        {(candles.isPending || (!isReady && !isLibraryFailed)) && (
          <div className="chart-overlay">
            <Skeleton.Paragraph lineCount={5} animated className="chart-skeleton" />
          </div>
        )}
        {(candles.isError || isLibraryFailed) && (
          <div className="chart-overlay chart-failed" role="alert">
            <span>{t('spot.chart.failed')}</span>
            <button type="button" className="text-button" onClick={() => candles.refetch()}>
              {t('common.retry')}
            </button>
          </div>
        )}
        {isEmpty && <div className="chart-overlay chart-failed">{t('spot.chart.empty')}</div>}
      </figure>
    </section>
  );
}
