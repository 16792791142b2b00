/** The one source of time for services, so tests can move it. */
export interface Clock {
  /** Unix milliseconds. */
  now(): number;
}

/** A clock that can also call back at a time: what the scheduler runs on. */
export interface TimerClock extends Clock {
  /**
   * Calls `callback` once, at `at` (unix ms) or as soon after as the clock allows; a time already
   * past fires on a later turn, never inside this call. Returns the function that cancels it.
   * The callback may return a promise; a test clock waits for it before moving on.
   */
  setTimer(at: number, callback: () => unknown): () => void;
}

// why: setTimeout takes a signed 32-bit delay; a longer wait is cut into steps of at most this.
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

function setSystemTimer(at: number, callback: () => unknown): () => void {
  let timer: NodeJS.Timeout | undefined;
  let cancelled = false;
  const arm = () => {
    const delay = Math.min(Math.max(at - Date.now(), 0), MAX_TIMEOUT_MS);
    timer = setTimeout(() => {
      if (cancelled) return;
      if (Date.now() < at) return arm();
      callback();
    }, delay);
    // why: timers never keep the process alive on their own; the HTTP server does.
    timer.unref();
  };
  arm();
  return () => {
    cancelled = true;
    clearTimeout(timer);
  };
}

export const systemClock: TimerClock = { now: () => Date.now(), setTimer: setSystemTimer };

interface ManualTimer {
  id: number;
  at: number;
  callback: () => unknown;
}

/**
 * A clock tests set by hand. `advance` moves time forward and fires the timers that fall due on
 * the way, in time order, each seeing `now()` equal to its own due time and awaited before the
 * next fires, so scheduled jobs run deterministically. Without due timers `advance` moves time at
 * once; with them, await it.
 */
export class ManualClock implements TimerClock {
  private current: number;
  private readonly timers = new Map<number, ManualTimer>();
  private nextTimerId = 1;
  private running: Promise<void> = Promise.resolve();
  private idle = true;

  constructor(start = Date.UTC(2026, 10, 22)) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  setTimer(at: number, callback: () => unknown): () => void {
    const id = this.nextTimerId++;
    this.timers.set(id, { id, at, callback });
    return () => {
      this.timers.delete(id);
    };
  }

  /** How many timers are waiting (for tests of the scheduler itself). */
  get pendingTimers(): number {
    return this.timers.size;
  }

  /** Moves time forward by `ms`, firing due timers on the way; resolves when their callbacks have settled. */
  advance(ms: number): Promise<void> {
    if (!(ms >= 0)) throw new RangeError(`a clock only moves forward: ${ms}`);
    const target = this.current + ms;
    // why: callers that do not await (tests with no jobs scheduled) still see the time move at once.
    if (this.nextDue(target) === undefined && this.idle) {
      this.current = target;
      return Promise.resolve();
    }
    this.idle = false;
    // why: a callback's failure reaches the caller of the advance that fired it, not later advances.
    const done = this.running.catch(() => {}).then(() => this.runUntil(target));
    this.running = done;
    const settle = () => {
      if (this.running === done) this.idle = true;
    };
    done.then(settle, settle);
    return done;
  }

  private async runUntil(target: number): Promise<void> {
    for (let timer = this.nextDue(target); timer; timer = this.nextDue(target)) {
      this.timers.delete(timer.id);
      if (timer.at > this.current) this.current = timer.at;
      await timer.callback();
    }
    if (target > this.current) this.current = target;
  }

  private nextDue(target: number): ManualTimer | undefined {
    let first: ManualTimer | undefined;
    for (const timer of this.timers.values()) {
      if (timer.at <= target && (!first || timer.at < first.at)) first = timer;
    }
    return first;
  }
}
