import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatPercent } from '../../../shared/format/format-percent.ts';

const MARKS = [25, 50, 75, 100] as const;

/**
 * The share of the available balance an order uses: a slider in whole percent with marks at
 * 25 / 50 / 75 / 100 %, each a button large enough for a thumb.
 */
export function PercentSlider({
  value,
  onChange,
  isDisabled,
}: {
  value: number;
  onChange: (percent: number) => void;
  isDisabled: boolean;
}) {
  const { t } = useTranslation();
  const formatPercent = useFormatPercent();
  const whole = (percent: number) => formatPercent.percent(String(percent), { decimals: 0 });
  return (
    <div className="percent-slider">
      <input
        type="range"
        className="percent-range"
        min={0}
        max={100}
        step={1}
        value={value}
        disabled={isDisabled}
        onChange={(event) => onChange(Number(event.target.value))}
        aria-label={t('spot.form.percent')}
        aria-valuetext={whole(value)}
        style={{ '--percent': `${value}%` } as CSSProperties}
        data-testid="percent-range"
      />
      <div className="percent-marks">
        {MARKS.map((mark) => (
          <button
            key={mark}
            type="button"
            className={value === mark ? 'percent-mark is-active' : 'percent-mark'}
            onClick={() => onChange(mark)}
            disabled={isDisabled}
            aria-pressed={value === mark}
            data-testid={`percent-${mark}`}
          >
            {whole(mark)}
          </button>
        ))}
      </div>
    </div>
  );
}
