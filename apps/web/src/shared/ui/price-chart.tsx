import './price-chart.css';
import Skeleton from 'antd-mobile/es/components/skeleton';
import type { CandlestickData, IChartApi, UTCTimestamp } from 'lightweight-charts';
import { type ReactNode, type RefObject, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDecimal } from '../format/format-decimal.ts';
import { useAfterPaint } from './use-after-paint.ts';

/** The charting library's module; fetched when a chart first shows, never in the app's first load. */
export type ChartLibrary = typeof import('lightweight-charts');

/** A value of a design token (a CSS custom property of the document). */
export function token(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
}

/** Candle colours of the current up/down preference (the tokens follow it). */
export function candleColours() {
  const up = token('--bourse-up');
  const down = token('--bourse-down');
  return { upColor: up, downColor: down, wickUpColor: up, wickDownColor: down, borderVisible: false };
}

/**
 * The price options of every series: `decimals` places, the smallest step one of them. The last
 * price keeps its dotted line but no tag on the axis: the tag is drawn over the axis' own labels
 * (the library does not move them aside), and the page already shows the last price large above
 * the chart.
 */
export function seriesPrice(decimals: number) {
  return {
    priceFormat: { type: 'price' as const, precision: decimals, minMove: 1 / 10 ** decimals },
    lastValueVisible: false,
  };
}

/** A candle of the wire (`t` in ms, prices as decimal strings) as a bar of the chart. */
export function toBar(candle: {
  t: number;
  o: string;
  h: string;
  l: string;
  c: string;
}): CandlestickData<UTCTimestamp> {
  // why: the chart draws numbers; these are for the eye only, never for money.
  return {
    time: Math.floor(candle.t / 1000) as UTCTimestamp,
    open: Number(candle.o),
    high: Number(candle.h),
    low: Number(candle.l),
    close: Number(candle.c),
  };
}

/**
 * The time axis for data of one point a second (`hasSeconds`, the index line) or of a minute and
 * more (candles), in the user's time zone and language. Labels are distinct (a second-apart mark
 * shows its seconds) and never cut at either edge.
 */
function timeAxisOptions(locale: string, hasSeconds: boolean) {
  const time = new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit' });
  const seconds = new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
  const day = new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric' });
  const full = new Intl.DateTimeFormat(locale, {
    dateStyle: 'medium',
    timeStyle: hasSeconds ? 'medium' : 'short',
  });
  // why: the library spaces labels by a count of characters (8 unless told); a 12-hour clock with
  // seconds ("11:58:58 PM") is longer, and labels then ran into each other.
  const latest = new Date(2026, 11, 28, 23, 58, 58);
  const longest = Math.max(
    ...[time, day, ...(hasSeconds ? [seconds] : [])].map((f) => f.format(latest).length),
  );
  return {
    timeScale: {
      timeVisible: true,
      secondsVisible: hasSeconds,
      // why: with the right edge fixed the library moves the newest label inside the axis rather
      // than cutting it in half. (Fixing the left edge too stretched a short history's few
      // candles across the whole width.)
      fixRightEdge: true,
      tickMarkMaxCharacterLength: Math.max(8, longest),
      // why: times in the user's time zone and language, not the library's UTC. Type 4 is a mark
      // between minutes (TickMarkType.TimeWithSeconds): shown without seconds, the marks of one
      // minute all read the same ("00:43 00:43 00:43").
      tickMarkFormatter: (value: number, type: number) =>
        (type <= 2 ? day : type === 4 ? seconds : time).format(new Date(value * 1000)),
    },
    localization: { timeFormatter: (value: number) => full.format(new Date(value * 1000)) },
  };
}

/**
 * Creates the chart in `containerRef` once its data first arrived (`hasData`) and the library has
 * loaded: the theme's colours, times in the user's time zone and language, prices grouped and
 * truncated as everywhere else. The chart is made again when `decimals` or the language change;
 * series are the caller's (add them once `isReady`, from `chartRef` and `libraryRef`).
 */
export function usePriceChart(
  containerRef: RefObject<HTMLDivElement | null>,
  decimals: number,
  hasData: boolean,
  {
    hasSeconds = false,
  }: { /** The data has a point a second (a tick line), not candles. */ hasSeconds?: boolean } = {},
) {
  const { i18n } = useTranslation();
  const locale = i18n.language;
  const chartRef = useRef<IChartApi | null>(null);
  const libraryRef = useRef<ChartLibrary | null>(null);
  const [isReady, setIsReady] = useState(false);
  const [isLibraryFailed, setIsLibraryFailed] = useState(false);
  // why: the axis the chart is made with, read when the library arrives.
  const hasSecondsRef = useRef(hasSeconds);
  hasSecondsRef.current = hasSeconds;
  // why: the library (some 60 KB gzipped) is fetched once the page's data is on screen, so it
  // never holds up that paint.
  const isWanted = useAfterPaint(hasData);

  useEffect(() => {
    if (!isWanted) return;
    let isDisposed = false;
    let chart: IChartApi | null = null;
    import('lightweight-charts').then(
      (library) => {
        const element = containerRef.current;
        if (isDisposed || !element) return;
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
          // why: a price label the pane's top or bottom would cut in half is left out.
          rightPriceScale: { borderColor: grid, entireTextOnly: true },
          timeScale: { borderColor: grid },
          localization: {
            locale,
            // why: the axis groups and separates digits as every other price on the page.
            priceFormatter: (price: number) => formatDecimal(price.toFixed(decimals), decimals, locale),
          },
          handleScale: { axisPressedMouseMove: false },
        });
        libraryRef.current = library;
        chartRef.current = chart;
        chart.applyOptions(timeAxisOptions(locale, hasSecondsRef.current));
        setIsReady(true);
      },
      () => setIsLibraryFailed(true),
    );
    return () => {
      isDisposed = true;
      chartRef.current = null;
      chart?.remove();
      setIsReady(false);
    };
  }, [containerRef, decimals, locale, isWanted]);

  // why: switching between the tick line and candles changes the axis, not the whole chart.
  useEffect(() => {
    if (isReady) chartRef.current?.applyOptions(timeAxisOptions(locale, hasSeconds));
  }, [isReady, locale, hasSeconds]);

  return { chartRef, libraryRef, isReady, isLibraryFailed };
}

/** What the data behind a chart is doing (a query's state, for the overlays). */
export interface ChartDataState {
  /** The data arrived (with the chart made, `data-ready`: the tests wait on it). */
  isSuccess: boolean;
  isPending: boolean;
  isError: boolean;
  isEmpty: boolean;
  retry: () => void;
}

/**
 * The frame of a price chart: its interval buttons, the canvas, and the loading, failed and empty
 * overlays. `className` picks the feature's size (`index-chart`, `candle-chart` in price-chart.css).
 */
export function PriceChartFrame<Interval extends string>({
  className,
  containerRef,
  intervals,
  active,
  onSelect,
  intervalLabel,
  legend,
  label,
  testId,
  isReady,
  isLibraryFailed,
  data,
  failedText,
  emptyText,
}: {
  className: string;
  containerRef: RefObject<HTMLDivElement | null>;
  intervals: readonly Interval[];
  active: Interval;
  onSelect: (interval: Interval) => void;
  intervalLabel: (interval: Interval) => ReactNode;
  legend: string;
  label: string;
  testId: string;
  /** The chart is made (the library loaded). */
  isReady: boolean;
  isLibraryFailed: boolean;
  data: ChartDataState;
  failedText: string;
  emptyText: string;
}) {
  const { t } = useTranslation();
  return (
    <section className={`price-chart ${className}`}>
      <fieldset className="chart-intervals">
        <legend className="visually-hidden">{legend}</legend>
        {intervals.map((each) => (
          <button
            key={each}
            type="button"
            className={each === active ? 'chart-interval is-active' : 'chart-interval'}
            aria-pressed={each === active}
            onClick={() => onSelect(each)}
            data-testid={`chart-interval-${each}`}
          >
            {intervalLabel(each)}
          </button>
        ))}
      </fieldset>
      <figure
        className="chart-frame"
        aria-label={label}
        data-testid={testId}
        data-ready={isReady && data.isSuccess}
      >
        <div ref={containerRef} className="chart-canvas" />
        {(data.isPending || (!isReady && !isLibraryFailed)) && (
          <div className="chart-overlay">
            <Skeleton.Paragraph lineCount={5} animated className="chart-skeleton" />
          </div>
        )}
        {(data.isError || isLibraryFailed) && (
          <div className="chart-overlay chart-failed" role="alert">
            <span>{failedText}</span>
            <button type="button" className="text-button" onClick={data.retry}>
              {t('common.retry')}
            </button>
          </div>
        )}
        {data.isEmpty && <div className="chart-overlay chart-failed">{emptyText}</div>}
      </figure>
    </section>
  );
}
