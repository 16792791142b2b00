import { useSyncExternalStore } from 'react';
import { clockOffset } from './format/countdown.ts';

let offset = 0;

/** Called with each answer that carries the server's clock, and when its request was sent. */
export function syncServerClock(serverTime: number, sentAt: number): void {
  offset = clockOffset(serverTime, sentAt, Date.now());
}

/** The server's time now, as far as the phone can tell. */
export function serverNow(): number {
  return Date.now() + offset;
}

const listeners = new Set<() => void>();
let timer: number | undefined;
let now = 0;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (timer === undefined) {
    now = serverNow();
    timer = window.setInterval(() => {
      now = serverNow();
      for (const each of listeners) each();
    }, 1000);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      window.clearInterval(timer);
      timer = undefined;
    }
  };
}

/** The server's time, re-rendering once a second: one timer for every countdown on the page. */
export function useServerNow(): number {
  return useSyncExternalStore(subscribe, () => now || serverNow());
}
