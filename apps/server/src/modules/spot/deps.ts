import type { Bus } from '../../platform/bus.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Db } from '../../platform/db.ts';
import type { Scheduler } from '../../platform/scheduler.ts';
import type { LedgerService } from '../ledger/service.ts';

/** What the spot service works with: the store, the clock, the ledger and the modules it asks. */
export interface SpotDeps {
  db: Db;
  clock: Clock;
  ledger: LedgerService;
  /** The index this node last saw (the markets module): limit prices must stay in its band. */
  index: { latestIndex(symbol: string): { price: bigint } | undefined };
  users: {
    tradingStatuses(db: Db, userIds: readonly bigint[]): Promise<Map<bigint, 'ok' | 'frozen' | 'banned'>>;
  };
  bus?: Bus;
  /** Runs the job that keeps the markets' candles. */
  scheduler: Scheduler;
  onError?: (error: unknown, what: string) => void;
  /** Refuses trading to unverified users when the operator's policy asks for it. */
  identityGate: { requireForTrading(userId: bigint): Promise<void> };
  /** Refuses customers who have not accepted the terms of service in force (the content module). Required. */
  termsGate: { requireAccepted(userId: bigint): Promise<void> };
  /** This node: its name, the market lease, and whether several nodes share the store. */
  node: {
    id: string;
    leaseMs: number;
    cluster: boolean;
    log?: (level: 'info' | 'warn' | 'error', message: string, detail?: Record<string, unknown>) => void;
  };
  /** Refuses new orders (PLATFORM_HALTED) while a platform halt holds (the halt module). Required. */
  platformHalt: { requireRunning(): Promise<void> };
}
