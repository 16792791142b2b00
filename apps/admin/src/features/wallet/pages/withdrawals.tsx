import { ReviewQueue } from './review-queue.tsx';

export function WithdrawalsPage() {
  return <ReviewQueue kind="withdrawals" />;
}
