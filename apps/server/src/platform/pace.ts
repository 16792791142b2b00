import { setTimeout as sleep, setImmediate as yieldToLoop } from 'node:timers/promises';

/**
 * Work on the event loop in short stretches: `due()` says (cheaply) when the stretch since the
 * last turn passed `budgetMs`; `turn()` then gives the loop back. why: a count of rows between
 * turns is wrong one way or the other as a row's cost varies (a year's snapshot added 20,000
 * balances between turns in 30–100 ms on a loaded machine, and order entry waited that long).
 *
 *   if (pace.due()) await pace.turn();
 */
export class TimeSlice {
  readonly #budgetMs: number;
  #since = performance.now();
  #calls = 0;

  constructor(budgetMs = 4) {
    this.#budgetMs = budgetMs;
  }

  due(): boolean {
    // why: reading the clock costs more than most rows; look at it every 64 calls.
    this.#calls += 1;
    return (this.#calls & 63) === 0 && performance.now() - this.#since >= this.#budgetMs;
  }

  async turn(): Promise<void> {
    await yieldToLoop();
    this.#since = performance.now();
  }
}

/**
 * A background job's pace: `rest()` rests as long as the job worked since the pace was made or
 * last rested (at least a turn of the event loop), so the job takes at most about half of the
 * machine's time (a core, the store) from order entry however long it runs.
 */
export class Pace {
  #since = performance.now();

  async rest(): Promise<void> {
    const worked = performance.now() - this.#since;
    if (worked >= 1) await sleep(worked);
    else await yieldToLoop();
    this.#since = performance.now();
  }
}
