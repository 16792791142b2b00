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

/** The price format of a series: `decimals` places, the smallest step one of them. */
export function priceFormat(decimals: number) {
  return { type: 'price' as const, precision: decimals, minMove: 1 / 10 ** decimals };
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
 * Creates the chart in `containerRef` once its data first arrived (`hasData`) and the library has
 * loaded: the theme's colours, times in the user's time zone and language, prices grouped and
 * truncated as everywhere else. The chart is made again when `decimals` or the language change;
 * series are the caller's (add them once `isReady`, from `chartRef` and `libraryRef`).
 */
export function usePriceChart(
  containerRef: RefObject<HTMLDivElement | null>,
  decimals: number,
  hasData: boolean,
) {
  const { i18n } = useTranslation();
  const locale = i18n.language;
  const chartRef = useRef<IChartApi | null>(null);
  const libraryRef = useRef<ChartLibrary | null>(null);
  const [isReady, setIsReady] = useState(false);
  const [isLibraryFailed, setIsLibraryFailed] = useState(false);
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
        const time = new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit' });
        const day = new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric' });
        const full = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
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
      setIsReady(false);
    };
  }, [containerRef, decimals, locale, isWanted]);

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
