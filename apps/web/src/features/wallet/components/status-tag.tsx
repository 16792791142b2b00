import type { DepositStatus, WithdrawalStatus } from '@bourse/shared/api';
import { useTranslation } from 'react-i18next';

const TONES: Record<DepositStatus | WithdrawalStatus, 'pending' | 'done' | 'failed'> = {
  confirming: 'pending',
  review: 'pending',
  credited: 'done',
  passed: 'done',
  rejected: 'failed',
};

const LABELS: Record<DepositStatus | WithdrawalStatus, string> = {
  confirming: 'wallet.status.confirming',
  credited: 'wallet.status.credited',
  review: 'wallet.status.review',
  passed: 'wallet.status.passed',
  rejected: 'wallet.status.rejected',
};

/** A deposit's or withdrawal's state in words, tinted by whether it is pending, done or failed. */
export function StatusTag({ status, testId }: { status: DepositStatus | WithdrawalStatus; testId?: string }) {
  const { t } = useTranslation();
  return (
    <span className={`wallet-status is-${TONES[status]}`} data-testid={testId} data-status={status}>
      {t(LABELS[status])}
    </span>
  );
}
