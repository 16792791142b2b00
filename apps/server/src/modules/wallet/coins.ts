// The coins the wallet works with (listed coins with their switches and networks) and their USDT index
// prices, shared by every wallet use case.

import { AppError, ATOMS_PER_UNIT, fromAtoms } from '@bourse/shared';
import type { Db } from '../../platform/db.ts';
import type { Coin, RecordedPrice } from '../markets/service.ts';
import { isAddressFormat } from './address-format.ts';
import type { CoinSettings, NetworkSettings } from './config.ts';
import type { WalletDeps } from './deps.ts';
import * as repo from './repository.ts';

const USDT = 'USDT';

/** A coin the wallet can work with: listed, active, with its wallet switches and networks. */
export interface WalletCoin {
  coin: Coin;
  settings: CoinSettings;
  networks: NetworkSettings[];
}

function toCoinSettings(coin: string, row: Awaited<ReturnType<typeof repo.findWalletCoin>>): CoinSettings {
  return {
    coin,
    icon: row?.icon ?? '',
    displayDecimals: row ? Number(row.display_decimals) : 8,
    convertible: row?.convertible === 1n,
    depositEnabled: row?.deposit_enabled === 1n,
    withdrawEnabled: row?.withdraw_enabled === 1n,
  };
}

function toNetworkSettings(row: Awaited<ReturnType<typeof repo.listNetworks>>[number]): NetworkSettings {
  return {
    coin: row.coin,
    network: row.network,
    addressFormat: isAddressFormat(row.address_format) ? row.address_format : 'bank',
    depositAddress: row.deposit_address,
    minDeposit: row.min_deposit,
    minWithdraw: row.min_withdraw,
    maxWithdraw: row.max_withdraw,
    withdrawFee: row.withdraw_fee,
    enabled: row.enabled === 1n,
    sort: Number(row.sort),
  };
}

export const isDepositNetwork = (n: NetworkSettings) =>
  n.enabled && n.depositAddress !== '' && n.addressFormat !== 'bank';

export const isWithdrawNetwork = (n: NetworkSettings) => n.enabled;

/** Listed coins with their wallet settings and networks; `activeOnly` (default) drops disabled coins. */
export async function walletCoins(
  deps: WalletDeps,
  db: Db,
  options: { activeOnly?: boolean } = {},
): Promise<WalletCoin[]> {
  const [coins, settings, networks] = await Promise.all([
    deps.markets.listCoins(db),
    repo.listWalletCoins(db),
    repo.listNetworks(db),
  ]);
  return coins
    .filter((coin) => options.activeOnly === false || coin.status === 'active')
    .map((coin) => ({
      coin,
      settings: toCoinSettings(
        coin.symbol,
        settings.find((s) => s.coin === coin.symbol),
      ),
      networks: networks.filter((n) => n.coin === coin.symbol).map(toNetworkSettings),
    }));
}

export async function requireCoin(deps: WalletDeps, db: Db, coin: string): Promise<WalletCoin> {
  const found = (await walletCoins(deps, db)).find((c) => c.coin.symbol === coin);
  if (!found) throw new AppError('COIN_UNAVAILABLE');
  return found;
}

/** Index price of each coin in USDT atoms per unit: the newer of the recorded and the live price. */
export async function usdtPrices(deps: WalletDeps): Promise<Map<string, bigint>> {
  const latest = new Map<string, RecordedPrice>();
  const recorded = await deps.markets.listRecordedPrices();
  for (const price of [...recorded, ...(deps.livePrices?.() ?? [])]) {
    const seen = latest.get(price.symbol);
    if (!seen || price.at >= seen.at) latest.set(price.symbol, price);
  }
  const prices = new Map<string, bigint>([[USDT, ATOMS_PER_UNIT]]);
  for (const [symbol, price] of latest) {
    if (symbol.endsWith(USDT) && symbol.length > USDT.length && price.price > 0n)
      prices.set(symbol.slice(0, -USDT.length), price.price);
  }
  return prices;
}

export function coinFlags(c: WalletCoin) {
  return {
    decimals: c.settings.displayDecimals,
    can_deposit: c.settings.depositEnabled && c.networks.some(isDepositNetwork),
    can_withdraw: c.settings.withdrawEnabled && c.networks.some(isWithdrawNetwork),
    can_convert: c.settings.convertible,
  };
}

export function findBalance(
  balances: readonly { asset: string; kind: string; balance: bigint }[],
  asset: string,
  kind: string,
): bigint {
  return balances.find((b) => b.asset === asset && b.kind === kind)?.balance ?? 0n;
}

export function toDepositNetwork(n: NetworkSettings) {
  return { network: n.network, address: n.depositAddress, min_deposit: fromAtoms(n.minDeposit) };
}

export function toWithdrawNetwork(n: NetworkSettings) {
  return {
    network: n.network,
    type: n.addressFormat === 'bank' ? ('bank' as const) : ('address' as const),
    min_withdraw: fromAtoms(n.minWithdraw),
    max_withdraw: fromAtoms(n.maxWithdraw),
    fee: fromAtoms(n.withdrawFee),
  };
}
