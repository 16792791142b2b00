import type { IndexCandle, IndexTick, KlineInterval } from '@bourse/shared/api';
import Skeleton from 'antd-mobile/es/components/skeleton';
import type { CandlestickData, IChartApi, ISeriesApi, LineData, UTCTimestamp } from 'lightweight-charts';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDecimal } from '../../../shared/format/format-decimal.ts';
import { useUpDownMode } from '../../../shared/preferences/up-down.ts';
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

function toBar(candle: IndexCandle): CandlestickData<UTCTimestamp> {
  // why: the chart draws numbers; these are for the eye only, never for money.
  return {
    time: Math.floor(candle.t / 1000) as UTCTimestamp,
    open: Number(candle.o),
    high: Number(candle.h),
    low: Number(candle.l),
    close: Number(candle.c),
  };
}

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

function token(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
}

function candleColours() {
  const up = token('--bourse-up');
  const down = token('--bourse-down');
  return { upColor: up, downColor: down, wickUpColor: up, wickDownColor: down, borderVisible: false };
}

/**
 * The live index chart: the line of the recorded ticks (`/Market/index`, then `index:<symbol>`),
 * or candles of the chosen interval (`/Market/kline`, then `kline:<symbol>:<interval>`). The
 * charting library is fetched when the chart first shows, so it never joins the app's first load.
 */
export function IndexChart({ symbol, decimals, label }: { symbol: string; decimals: number; label: string }) {
  const { t, i18n } = useTranslation();
  const [view, setView] = useState<ChartView>('line');
  const isLine = view === 'line';
  const interval: KlineInterval = isLine ? '1m' : view;
  const ticks = useIndexHistory(symbol, isLine);
  const candles = useKline(symbol, interval, !isLine);
  const history = isLine ? ticks : candles;
  const containerRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<IChartApi | null>(null);
  const seriesRef = useRef<Series | null>(null);
  const libraryRef = useRef<typeof import('lightweight-charts') | null>(null);
  const lastTime = useRef(0);
  const [isReady, setIsReady] = useState(false);
  const [seriesKey, setSeriesKey] = useState(0);
  const [isLibraryFailed, setIsLibraryFailed] = useState(false);
  const mode = useUpDownMode();
  const locale = i18n.language;

  useEffect(() => {
    let isDisposed = false;
    let chart: IChartApi | null = null;
    import('lightweight-charts').then(
      (library) => {
        const { createChart, ColorType } = library;
        const element = containerRef.current;
        if (isDisposed || !element) return;
        const muted = token('--bourse-text-muted');
        const grid = token('--bourse-border');
        const time = new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit' });
        const day = new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric' });
        const full = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
        chart = createChart(element, {
          autoSize: true,
          layout: {
            background: { type: ColorType.Solid, color: 'transparent' },
            textColor: muted,
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
            // why: the axis groups and separates digits as every other price on the page.
            priceFormatter: (price: number) => formatDecimal(price.toFixed(decimals), decimals, locale),
          },
          handleScale: { axisPressedMouseMove: false },
        });
        libraryRef.current = library;
        chartRef.current = chart;
        setIsReady(true);
      },
      () => setIsLibraryFailed(true),
    );
    return () => {
      isDisposed = true;
      chartRef.current = null;
      chart?.remove();
      seriesRef.current = null;
      setIsReady(false);
    };
  }, [decimals, locale]);

  // why: one series at a time, of the kind the view draws; the colours follow the preference.
  useEffect(() => {
    const chart = chartRef.current;
    const library = libraryRef.current;
    if (!isReady || !chart || !library || !mode) return;
    const priceFormat = { type: 'price' as const, precision: decimals, minMove: 1 / 10 ** decimals };
    const series: Series = isLine
      ? chart.addSeries(library.LineSeries, { color: token('--bourse-accent'), lineWidth: 2, priceFormat })
      : chart.addSeries(library.CandlestickSeries, { ...candleColours(), priceFormat });
    seriesRef.current = series;
    lastTime.current = 0;
    setSeriesKey((key) => key + 1);
    return () => {
      seriesRef.current = null;
      // why: when the page leaves, the chart is removed first, and its series with it.
      if (chartRef.current === chart) chart.removeSeries(series);
    };
  }, [isReady, isLine, decimals, mode]);

  useEffect(() => {
    const series = seriesRef.current;
    if (!seriesKey || !series) return;
    const points = isLine ? toPoints(ticks.data ?? []) : (candles.data ?? []).map(toBar);
    (series as ISeriesApi<'Line' | 'Candlestick'>).setData(points);
    lastTime.current = points.at(-1)?.time ?? 0;
    chartRef.current?.timeScale().scrollToRealTime();
  }, [seriesKey, isLine, ticks.data, candles.data]);

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
    <section className="index-chart">
      <fieldset className="chart-intervals">
        <legend className="visually-hidden">{t('delivery.chart.interval')}</legend>
        {CHART_INTERVALS.map((each) => (
          <button
            key={each}
            type="button"
            className={each === view ? 'chart-interval is-active' : 'chart-interval'}
            aria-pressed={each === view}
            onClick={() => setView(each)}
            data-testid={`chart-interval-${each}`}
          >
            {t(INTERVAL_KEYS[each])}
          </button>
        ))}
      </fieldset>
      <figure
        className="chart-frame"
        aria-label={label}
        data-testid="index-chart"
        data-ready={isReady && history.isSuccess}
      >
        <div ref={containerRef} className="chart-canvas" />
        {(history.isPending || (!isReady && !isLibraryFailed)) && (
          <div className="chart-overlay">
            <Skeleton.Paragraph lineCount={5} animated className="chart-skeleton" />
          </div>
        )}
        {(history.isError || isLibraryFailed) && (
          <div className="chart-overlay chart-failed" role="alert">
            <span>{t('delivery.chart.failed')}</span>
            <button type="button" className="text-button" onClick={() => history.refetch()}>
              {t('common.retry')}
            </button>
          </div>
        )}
        {history.isSuccess && history.data.length === 0 && (
          <div className="chart-overlay chart-failed">{t('delivery.chart.empty')}</div>
        )}
      </figure>
    </section>
  );
}
