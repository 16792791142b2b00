// The user's balances valued in USDT at the index, and the coins open to deposit or withdraw.

import { AppError, ATOMS_PER_UNIT, fromAtoms, type ResultKey } from '@bourse/shared';
import type {
  AssetRow,
  AssetsOverview,
  CoinBalance,
  CoinChoice,
  CoinSymbol,
  UserHome,
} from '@bourse/shared/api';
import {
  coinFlags,
  findBalance,
  isDepositNetwork,
  isWithdrawNetwork,
  requireCoin,
  toDepositNetwork,
  toWithdrawNetwork,
  usdtPrices,
  walletCoins,
} from './coins.ts';
import type { WalletDeps } from './deps.ts';

/** The assets tab's home: the user's profile and the assets overview, read together. */
export async function getUserHome(deps: WalletDeps, userId: bigint): Promise<UserHome> {
  const [userInfo, assets] = await Promise.all([deps.users.getUserInfo(userId), getAssets(deps, userId)]);
  return { ...assets, userInfo };
}

/** Every wallet coin with the user's available and frozen amounts, valued in USDT. */
export async function getAssets(deps: WalletDeps, userId: bigint): Promise<AssetsOverview> {
  const { db, ledger } = deps;
  const coins = await walletCoins(deps, db);
  const balances = await ledger.userBalances(db, userId);
  const prices = await usdtPrices(deps);
  let totalUsdt = 0n;
  const rows: AssetRow[] = coins.map((c) => {
    const available = findBalance(balances, c.coin.symbol, 'available');
    const frozen = findBalance(balances, c.coin.symbol, 'frozen');
    const price = prices.get(c.coin.symbol) ?? 0n;
    const value = ((available + frozen) * price) / ATOMS_PER_UNIT;
    totalUsdt += value;
    return {
      coin: c.coin.symbol,
      name: c.coin.name,
      icon: c.settings.icon,
      available: fromAtoms(available),
      frozen: fromAtoms(frozen),
      total: fromAtoms(available + frozen),
      price: fromAtoms(price),
      usdt_value: fromAtoms(value),
      ...coinFlags(c),
    };
  });
  return { total_usdt: fromAtoms(totalUsdt), coins: rows };
}

export async function getTotalValue(deps: WalletDeps, userId: bigint): Promise<{ total_usdt: string }> {
  return { total_usdt: (await getAssets(deps, userId)).total_usdt };
}

/** What `getCoinInfo` can answer besides the codes every route can. */
export const GET_COIN_INFO_ERRORS = ['COIN_UNAVAILABLE'] as const satisfies readonly ResultKey[];

/** One coin of the overview. */
export async function getCoinInfo(deps: WalletDeps, userId: bigint, coin: string): Promise<AssetRow> {
  const row = (await getAssets(deps, userId)).coins.find((c) => c.coin === coin);
  if (!row) throw new AppError('COIN_UNAVAILABLE');
  return row;
}

/** What `getBalance` can answer besides the codes every route can. */
export const GET_BALANCE_ERRORS = ['COIN_UNAVAILABLE'] as const satisfies readonly ResultKey[];

export async function getBalance(deps: WalletDeps, userId: bigint, coin: string): Promise<CoinBalance> {
  const { db, ledger } = deps;
  await requireCoin(deps, db, coin);
  const [available, frozen] = await Promise.all([
    ledger.balance(db, { userId }, coin, 'available'),
    ledger.balance(db, { userId }, coin, 'frozen'),
  ]);
  return { coin, available: fromAtoms(available), frozen: fromAtoms(frozen) };
}

/** Coins open for deposit (`deposit`) or withdrawal (`withdraw`), with the user's available amount. */
export async function listCoinChoices(
  deps: WalletDeps,
  userId: bigint,
  purpose: 'deposit' | 'withdraw',
): Promise<CoinChoice[]> {
  const { db, ledger } = deps;
  const coins = await walletCoins(deps, db);
  const balances = await ledger.userBalances(db, userId);
  return coins
    .filter((c) => (purpose === 'deposit' ? coinFlags(c).can_deposit : coinFlags(c).can_withdraw))
    .map((c) => ({
      coin: c.coin.symbol,
      name: c.coin.name,
      icon: c.settings.icon,
      decimals: c.settings.displayDecimals,
      available: fromAtoms(findBalance(balances, c.coin.symbol, 'available')),
    }));
}

/** What `getCoinSymbol` can answer besides the codes every route can. */
export const GET_COIN_SYMBOL_ERRORS = ['COIN_UNAVAILABLE'] as const satisfies readonly ResultKey[];

/** A coin's networks for deposit and withdrawal, and its index price in USDT. */
export async function getCoinSymbol(deps: WalletDeps, coin: string): Promise<CoinSymbol> {
  const c = await requireCoin(deps, deps.db, coin);
  const price = (await usdtPrices(deps)).get(coin) ?? 0n;
  return {
    coin,
    price: fromAtoms(price),
    deposit_networks: c.settings.depositEnabled
      ? c.networks.filter(isDepositNetwork).map(toDepositNetwork)
      : [],
    withdraw_networks: c.settings.withdrawEnabled
      ? c.networks.filter(isWithdrawNetwork).map(toWithdrawNetwork)
      : [],
  };
}

/** What `amount` atoms of `coin` are worth in USDT atoms at the index; undefined without a price. */
export async function usdtValue(deps: WalletDeps, coin: string, amount: bigint): Promise<bigint | undefined> {
  const price = (await usdtPrices(deps)).get(coin);
  return price === undefined ? undefined : (amount * price) / ATOMS_PER_UNIT;
}
