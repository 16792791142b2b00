import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

type PullState = 'idle' | 'pulling' | 'can-release' | 'refreshing' | 'complete';

/** How far (px, after damping) the list must be pulled before letting go refreshes it. */
const THRESHOLD = 56;
const MAX_PULL = 96;
const HEAD_HEIGHT = 44;
const COMPLETE_MS = 500;

/**
 * Pull down at the top of the page to refresh. A small touch-only implementation: the list stays
 * a normal document flow, and no animation library joins the first page load.
 */
export function PullToRefresh({
  onRefresh,
  children,
}: {
  onRefresh: () => Promise<unknown>;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  const [pull, setPull] = useState<{ state: PullState; offset: number }>({ state: 'idle', offset: 0 });
  const latest = useRef({ onRefresh, pull });
  latest.current = { onRefresh, pull };

  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    let startY: number | null = null;

    const onStart = (event: TouchEvent) => {
      const busy = latest.current.pull.state === 'refreshing' || latest.current.pull.state === 'complete';
      startY = window.scrollY <= 0 && !busy ? event.touches[0].clientY : null;
    };
    const onMove = (event: TouchEvent) => {
      if (startY === null) return;
      const distance = event.touches[0].clientY - startY;
      if (distance <= 0) {
        setPull({ state: 'idle', offset: 0 });
        return;
      }
      // why: while pulling, the page must not scroll or bounce under the finger.
      if (event.cancelable) event.preventDefault();
      const offset = Math.min(MAX_PULL, distance * 0.5);
      setPull({ state: offset >= THRESHOLD ? 'can-release' : 'pulling', offset });
    };
    const onEnd = async () => {
      if (startY === null) return;
      startY = null;
      if (latest.current.pull.state !== 'can-release') {
        setPull({ state: 'idle', offset: 0 });
        return;
      }
      setPull({ state: 'refreshing', offset: HEAD_HEIGHT });
      try {
        await latest.current.onRefresh();
      } catch {
        // The page shows its own error state.
      }
      setPull({ state: 'complete', offset: HEAD_HEIGHT });
      window.setTimeout(() => setPull({ state: 'idle', offset: 0 }), COMPLETE_MS);
    };

    element.addEventListener('touchstart', onStart, { passive: true });
    element.addEventListener('touchmove', onMove, { passive: false });
    element.addEventListener('touchend', onEnd);
    element.addEventListener('touchcancel', onEnd);
    return () => {
      element.removeEventListener('touchstart', onStart);
      element.removeEventListener('touchmove', onMove);
      element.removeEventListener('touchend', onEnd);
      element.removeEventListener('touchcancel', onEnd);
    };
  }, []);

  const label = {
    idle: '',
    pulling: t('common.pull.pulling'),
    'can-release': t('common.pull.canRelease'),
    refreshing: t('common.pull.refreshing'),
    complete: t('common.pull.complete'),
  }[pull.state];
  const isDragging = pull.state === 'pulling' || pull.state === 'can-release';

  return (
    <div ref={ref} className="pull-to-refresh">
      <div className="pull-to-refresh-head" style={{ height: pull.offset }} aria-live="polite">
        {label && <span>{label}</span>}
      </div>
      <div
        className={isDragging ? 'pull-to-refresh-body' : 'pull-to-refresh-body is-settling'}
        data-state={pull.state}
      >
        {children}
      </div>
    </div>
  );
}
