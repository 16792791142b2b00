import { AppError, type ResultKey } from '@bourse/shared';
import type { StaffActor } from '../../platform/staff-actor.ts';
import type { CoinSettings, NetworkSettings } from './config.ts';
import type { WalletService } from './service.ts';

/** A coin's wallet switches with its networks, as the configuration page shows them. */
export type CoinConfig = CoinSettings & { networks: NetworkSettings[] };

/** What staff may change of a coin (its icon stays as it is). */
export type CoinSwitches = Omit<CoinSettings, 'icon'>;

/** A network as staff submit it; `sort` absent keeps the current order (0 for a new network). */
export type NetworkInput = Omit<NetworkSettings, 'sort'> & { sort?: number };

/** What `saveCoin` can answer besides the codes every route can. */
export const SAVE_COIN_ERRORS = ['COIN_UNAVAILABLE'] as const satisfies readonly ResultKey[];

/** What `saveNetwork` can answer besides the codes every route can. */
export const SAVE_NETWORK_ERRORS = [
  'COIN_UNAVAILABLE',
  'ADDRESS_INVALID',
  'AMOUNT_INVALID',
  'CONFIG_AMOUNT_INVALID',
  'CONFIG_LIMITS_INVALID',
  'NETWORK_UNAVAILABLE',
] as const satisfies readonly ResultKey[];

/**
 * The wallet configuration as staff edit it (coins, networks, deposit addresses, limits, fees):
 * the page's shapes over the wallet's audited methods, each save one transaction with its
 * before/after audit record.
 */
export class WalletBackOffice {
  readonly #wallet: WalletService;

  constructor(wallet: WalletService) {
    this.#wallet = wallet;
  }

  /** Every coin the platform lists, with its wallet switches and networks in their order. */
  async listCoins(): Promise<CoinConfig[]> {
    const config = await this.#wallet.getConfig();
    return config.coins.map((coin) => ({
      ...coin,
      networks: config.networks
        .filter((n) => n.coin === coin.coin)
        .sort((a, b) => a.sort - b.sort || a.network.localeCompare(b.network)),
    }));
  }

  /** Saves a coin's switches; an unknown coin answers COIN_UNAVAILABLE. */
  async saveCoin(staff: StaffActor, input: CoinSwitches): Promise<void> {
    const current = (await this.#wallet.getConfig()).coins.find((c) => c.coin === input.coin);
    if (!current) throw new AppError('COIN_UNAVAILABLE');
    await this.#wallet.saveCoinSettings({ settings: { ...current, ...input }, staff });
  }

  /**
   * Creates or updates a network. The wallet refuses an unknown coin or address format and a
   * deposit address whose checksum fails (ADDRESS_INVALID).
   */
  async saveNetwork(staff: StaffActor, input: NetworkInput): Promise<void> {
    if (input.maxWithdraw !== 0n && input.minWithdraw > input.maxWithdraw)
      throw new AppError('CONFIG_LIMITS_INVALID');
    const current = (await this.#wallet.getConfig()).networks.find(
      (n) => n.coin === input.coin && n.network === input.network,
    );
    await this.#wallet.saveNetwork({ network: { ...input, sort: input.sort ?? current?.sort ?? 0 }, staff });
  }
}
