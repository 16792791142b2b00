import type { Clock } from './clock.ts';

/**
 * Counts events per key in a fixed window (e.g. failed logins per IP). In-process; a shared
 * implementation (Redis) takes its place when several API nodes run.
 */
export interface RateLimiter {
  /** How many events `key` has in its current window. */
  count(key: string, windowMs: number): number;
  /** Records one event for `key` and returns the new count. */
  hit(key: string, windowMs: number): number;
  reset(key: string): void;
}

export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  private readonly clock: Clock;

  constructor(clock: Clock) {
    this.clock = clock;
  }

  count(key: string, windowMs: number): number {
    const entry = this.windows.get(key);
    if (!entry || this.clock.now() - entry.start >= windowMs) return 0;
    return entry.count;
  }

  hit(key: string, windowMs: number): number {
    const now = this.clock.now();
    const entry = this.windows.get(key);
    if (!entry || now - entry.start >= windowMs) {
      this.windows.set(key, { start: now, count: 1 });
      this.sweep(now, windowMs);
      return 1;
    }
    entry.count += 1;
    return entry.count;
  }

  reset(key: string): void {
    this.windows.delete(key);
  }

  // why: keep memory bounded under a flood of distinct keys (e.g. random usernames).
  private sweep(now: number, windowMs: number): void {
    if (this.windows.size < 10_000) return;
    for (const [key, entry] of this.windows) if (now - entry.start >= windowMs) this.windows.delete(key);
  }
}
