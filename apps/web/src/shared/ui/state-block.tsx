import Button from 'antd-mobile/es/components/button';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { IconCompass, IconWifiOff } from './shell-icons.tsx';

/** A failed load: what went wrong in one sentence and a retry button. */
export function ErrorState({ message, onRetry }: { message?: string; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="state-block" role="alert">
      <IconWifiOff className="state-block-icon" />
      <p className="state-block-text">{message || t('common.loadFailed')}</p>
      <Button color="primary" fill="outline" onClick={onRetry} data-testid="retry">
        {t('common.retry')}
      </Button>
    </div>
  );
}

/** Nothing to show: an icon, one sentence, and the action that fills the list. */
export function EmptyState({
  message,
  action,
  testId = 'empty-state',
}: {
  message: string;
  action?: ReactNode;
  testId?: string;
}) {
  return (
    <div className="state-block" data-testid={testId}>
      <IconCompass className="state-block-icon" />
      <p className="state-block-text">{message}</p>
      {action}
    </div>
  );
}
