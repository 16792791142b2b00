import { ReviewQueue } from './review-queue.tsx';

export function DepositsPage() {
  return <ReviewQueue kind="deposits" />;
}
