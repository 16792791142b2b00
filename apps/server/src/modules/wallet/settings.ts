// Staff configuration of the wallet: each coin's switches and its networks, audited.

import { AppError, fromAtoms } from '@bourse/shared';
import type { StaffActor } from '../../platform/staff-actor.ts';
import { isAddressFormat, isValidAddress } from './address-format.ts';
import { walletCoins } from './coins.ts';
import type { CoinSettings, NetworkSettings, WalletConfig } from './config.ts';
import type { WalletDeps } from './deps.ts';
import * as repo from './repository.ts';

const flag = (value: boolean) => (value ? 1n : 0n);

/** Every listed coin's wallet settings and networks (the back office's configuration page). */
export async function getConfig(deps: WalletDeps): Promise<WalletConfig> {
  const coins = await walletCoins(deps, deps.db, { activeOnly: false });
  return { coins: coins.map((c) => c.settings), networks: coins.flatMap((c) => c.networks) };
}

/** Saves a coin's wallet settings, audited. */
export async function saveCoinSettings(
  deps: WalletDeps,
  input: { settings: CoinSettings; staff: StaffActor },
): Promise<void> {
  const { db, audit, markets } = deps;
  const { settings, staff } = input;
  if (!(await markets.listCoins()).some((c) => c.symbol === settings.coin))
    throw new AppError('COIN_UNAVAILABLE');
  await db.transaction().execute(async (trx) => {
    const before = await repo.findWalletCoin(trx, settings.coin);
    await repo.upsertWalletCoin(trx, toCoinValues(settings));
    await audit.record(trx, {
      actor: staff.actor,
      action: 'wallet.coin.save',
      target: `coin:${settings.coin}`,
      before: before ?? null,
      after: toCoinValues(settings),
      ip: staff.ip,
    });
  });
}

/** Saves a network (deposit address, limits, fee), audited; the deposit address must be valid. */
export async function saveNetwork(
  deps: WalletDeps,
  input: { network: NetworkSettings; staff: StaffActor },
): Promise<void> {
  const { db, audit, markets } = deps;
  const { network, staff } = input;
  if (!(await markets.listCoins()).some((c) => c.symbol === network.coin))
    throw new AppError('COIN_UNAVAILABLE');
  if (!isAddressFormat(network.addressFormat)) throw new AppError('PARAM_ERROR');
  if (network.depositAddress !== '' && !isValidAddress(network.addressFormat, network.depositAddress))
    throw new AppError('ADDRESS_INVALID');
  const amounts = [network.minDeposit, network.minWithdraw, network.maxWithdraw, network.withdrawFee];
  if (amounts.some((a) => a < 0n)) throw new AppError('AMOUNT_INVALID');
  if (network.maxWithdraw !== 0n && network.maxWithdraw < network.minWithdraw)
    throw new AppError('AMOUNT_INVALID');
  await db.transaction().execute(async (trx) => {
    const before = await repo.findNetwork(trx, network.coin, network.network);
    await repo.upsertNetwork(trx, toNetworkValues(network));
    await audit.record(trx, {
      actor: staff.actor,
      action: 'wallet.network.save',
      target: `network:${network.coin}:${network.network}`,
      before: before ? networkAuditView(before) : null,
      after: networkAuditView(toNetworkValues(network)),
      ip: staff.ip,
    });
  });
}

export function toCoinValues(s: CoinSettings) {
  return {
    coin: s.coin,
    icon: s.icon,
    display_decimals: BigInt(s.displayDecimals),
    convertible: flag(s.convertible),
    deposit_enabled: flag(s.depositEnabled),
    withdraw_enabled: flag(s.withdrawEnabled),
  };
}

export function toNetworkValues(n: NetworkSettings): repo.NetworkValues {
  return {
    coin: n.coin,
    network: n.network,
    address_format: n.addressFormat,
    deposit_address: n.depositAddress,
    min_deposit: n.minDeposit,
    min_withdraw: n.minWithdraw,
    max_withdraw: n.maxWithdraw,
    withdraw_fee: n.withdrawFee,
    enabled: flag(n.enabled),
    sort: BigInt(n.sort),
  };
}

/** A network row as the audit log keeps it: its amounts as decimal strings, as staff typed them. */
function networkAuditView<T extends repo.NetworkValues>(row: T) {
  return {
    ...row,
    min_deposit: fromAtoms(row.min_deposit),
    min_withdraw: fromAtoms(row.min_withdraw),
    max_withdraw: fromAtoms(row.max_withdraw),
    withdraw_fee: fromAtoms(row.withdraw_fee),
  };
}
