import type { FastifyInstance } from 'fastify';
import { walletRoutes } from './routes.ts';
import { type WalletDeps, WalletService } from './service.ts';

/**
 * The wallet: `/apiv/Finance/*` and the wallet's `/apiv/user/*` calls; registers its pending
 * withdrawals with the ledger as open reservations. Returns the service the back office calls.
 */
export function registerWalletModule(api: FastifyInstance, deps: WalletDeps): WalletService {
  const wallet = new WalletService(deps);
  // why: the profile's `is_address` is the wallet's data; users, below the wallet, asks it here.
  deps.users.useWithdrawAddresses(wallet);
  api.register(walletRoutes, { wallet });
  return wallet;
}
