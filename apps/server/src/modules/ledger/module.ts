import { LedgerService } from './service.ts';

/** The ledger has no customer routes: other modules move money through its service. */
export function registerLedgerModule(deps: ConstructorParameters<typeof LedgerService>[0]): LedgerService {
  return new LedgerService(deps);
}
