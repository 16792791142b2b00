/** The one source of time for services, so tests can move it. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock tests set by hand. */
export class ManualClock implements Clock {
  private current: number;

  constructor(start = Date.UTC(2026, 10, 22)) {
    this.current = start;
  }
  now(): number {
    return this.current;
  }
  advance(ms: number): void {
    this.current += ms;
  }
}
