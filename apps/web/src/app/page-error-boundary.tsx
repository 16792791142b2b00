import Button from 'antd-mobile/es/components/button';
import { Component, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { IconWifiOff } from '../shared/ui/shell-icons.tsx';

function PageFailed() {
  const { t } = useTranslation();
  return (
    <div className="state-block state-block-page" role="alert">
      <IconWifiOff className="state-block-icon" />
      <p className="state-block-text">{t('common.pageFailed')}</p>
      <Button color="primary" onClick={() => window.location.reload()}>
        {t('common.reload')}
      </Button>
    </div>
  );
}

/**
 * Catches a page that failed to load or crashed; after a new deployment an old tab may ask for
 * chunks that are gone, and a reload fixes that. `resetKey` (the path) clears it on navigation.
 */
interface BoundaryProps {
  resetKey: string;
  children: ReactNode;
}

interface BoundaryState {
  hasError: boolean;
  key: string;
}

export class PageErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { hasError: false, key: this.props.resetKey };

  static getDerivedStateFromError(): Partial<BoundaryState> {
    return { hasError: true };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    return props.resetKey === state.key ? null : { hasError: false, key: props.resetKey };
  }

  override componentDidCatch(error: unknown): void {
    if (import.meta.env.DEV) console.error(error);
  }

  override render() {
    return this.state.hasError ? <PageFailed /> : this.props.children;
  }
}
