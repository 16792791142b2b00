import { truncateDecimal } from '@bourse/shared';
import { useTranslation } from 'react-i18next';
import { IconArrowDown, IconArrowUp } from '../../../shared/ui/icons.tsx';

/** A 24h change with sign, arrow and two decimals, in the user's up/down colour. */
export function ChangeText({ change, testId }: { change: string; testId?: string }) {
  const { i18n } = useTranslation();
  const text = truncateDecimal(change, 2);
  const direction = /[1-9]/.test(text) ? (text.startsWith('-') ? 'down' : 'up') : 'flat';
  const formatted = new Intl.NumberFormat(i18n.language, {
    style: 'percent',
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
    signDisplay: 'exceptZero',
  }).format(Number(text) / 100);
  return (
    <span className={`change-text is-${direction} num`} data-testid={testId}>
      {direction === 'up' && <IconArrowUp />}
      {direction === 'down' && <IconArrowDown />}
      {formatted}
    </span>
  );
}
