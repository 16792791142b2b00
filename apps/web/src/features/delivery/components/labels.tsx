import { splitDuration } from '@bourse/shared';
import type { ContractDirection, ContractRecord } from '@bourse/shared/api';
import { useTranslation } from 'react-i18next';
import { IconArrowDown, IconArrowUp } from '../../../shared/ui/icons.tsx';
import { isLive } from '../api/contract-status.ts';

const UNIT_KEYS = {
  seconds: 'delivery.duration.seconds',
  hours: 'delivery.duration.hours',
  days: 'delivery.duration.days',
} as const;

/** A period by the spec's rule (under 3600 s in seconds, under 604800 s in hours, else days). */
export function useFormatPeriod(): (seconds: number) => string {
  const { t } = useTranslation();
  return (seconds) => {
    const { value, unit } = splitDuration(seconds);
    return t(UNIT_KEYS[unit], { value });
  };
}

const DIRECTION_KEYS = { up: 'delivery.direction.up', down: 'delivery.direction.down' } as const;

/** Up or down in words, with its arrow and the user's up/down colour (never colour alone). */
export function DirectionTag({ direction, testId }: { direction: ContractDirection; testId?: string }) {
  const { t } = useTranslation();
  return (
    <span className={`direction-tag is-${direction}`} data-testid={testId} data-direction={direction}>
      {direction === 'up' ? <IconArrowUp /> : <IconArrowDown />}
      {t(DIRECTION_KEYS[direction])}
    </span>
  );
}

const STATUS_KEYS = {
  opening: 'delivery.status.opening',
  open: 'delivery.status.open',
  settling: 'delivery.status.settling',
  settled: 'delivery.status.settled',
  closed: 'delivery.status.closed',
} as const;

const RESULT_KEYS = {
  win: 'delivery.result.win',
  loss: 'delivery.result.loss',
  draw: 'delivery.result.draw',
  refund: 'delivery.result.refund',
} as const;

/** A contract's state in words: opening, open, settling, settled or closed (refunded). */
export function StatusTag({ status, testId }: { status: ContractRecord['status']; testId?: string }) {
  const { t } = useTranslation();
  const tone = isLive({ status }) ? 'pending' : 'done';
  return (
    <span className={`contract-tag is-${tone}`} data-testid={testId} data-status={status}>
      {t(STATUS_KEYS[status])}
    </span>
  );
}

/** How a settled contract ended: won, lost, drawn (refunded) or refunded. */
export function ResultTag({
  result,
  testId,
}: {
  result: NonNullable<ContractRecord['result']>;
  testId?: string;
}) {
  const { t } = useTranslation();
  const tone = result === 'win' ? 'gain' : result === 'loss' ? 'loss' : 'neutral';
  return (
    <span className={`contract-tag is-${tone}`} data-testid={testId} data-result={result}>
      {t(RESULT_KEYS[result])}
    </span>
  );
}

const SOURCE_KEYS: Record<string, string> = { simulated: 'delivery.source.simulated' };

/** Where an index price came from; the offline simulation is named as such, in the user's language. */
export function useSourceLabel(): (source: string | null | undefined) => string {
  const { t } = useTranslation();
  return (source) => {
    if (!source) return '—';
    const key = SOURCE_KEYS[source];
    return key ? t(key) : source;
  };
}

const percentFormatters = new Map<string, Intl.NumberFormat>();

/**
 * A percentage already cut to two decimals (`"55.55"`), written the locale's way (`55,55 %` in
 * French and German, `%55,55` in Turkish); `isSigned` adds the `+` of a gain.
 */
export function usePercent(): (percent: string, isSigned?: boolean) => string {
  const { i18n } = useTranslation();
  const locale = i18n.language;
  return (percent, isSigned = false) => {
    const key = `${locale}:${isSigned}`;
    let formatter = percentFormatters.get(key);
    if (!formatter) {
      formatter = new Intl.NumberFormat(locale, {
        style: 'percent',
        minimumFractionDigits: 2,
        maximumFractionDigits: 2,
        signDisplay: isSigned ? 'exceptZero' : 'auto',
      });
      percentFormatters.set(key, formatter);
    }
    // why: the digits were cut exactly before; Intl only places sign, separator and % sign.
    return formatter.format(Number(percent) / 100);
  };
}
