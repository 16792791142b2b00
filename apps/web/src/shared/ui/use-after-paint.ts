import { useEffect, useState } from 'react';

/**
 * False until the frame after `isReady` first turned true has been painted, then true for good. A
 * page shows its data first and only then starts on heavy code (a form with its schemas, a chart's
 * library), whose loading and start-up would otherwise hold up that first paint of the data.
 */
export function useAfterPaint(isReady: boolean): boolean {
  const [isDone, setIsDone] = useState(false);
  useEffect(() => {
    if (!isReady || isDone) return;
    let timer = 0;
    const frame = window.requestAnimationFrame(() => {
      timer = window.setTimeout(() => setIsDone(true), 0);
    });
    return () => {
      window.cancelAnimationFrame(frame);
      window.clearTimeout(timer);
    };
  }, [isReady, isDone]);
  return isDone;
}
