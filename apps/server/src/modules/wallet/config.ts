import { toAtoms } from '@bourse/shared';
import type { NetworkAmountKey, WalletCoinSettings, WalletNetworkSettings } from '@bourse/shared/api';
import type { AddressFormat } from './address-format.ts';

/** A coin's wallet switches, as staff or the demo seed configure them (the wire's shape). */
export type CoinSettings = WalletCoinSettings;

/**
 * A coin's network: the wire's shape (`WalletNetworkSettings`) with its amounts in atoms and its
 * address format one the wallet can check. `maxWithdraw` 0 = no maximum.
 */
export type NetworkSettings = Omit<WalletNetworkSettings, NetworkAmountKey | 'addressFormat'> &
  Record<NetworkAmountKey, bigint> & { addressFormat: AddressFormat };

export interface WalletConfig {
  coins: CoinSettings[];
  networks: NetworkSettings[];
}

const coin = (symbol: string, convertible = true, deposit = true, withdraw = true): CoinSettings => ({
  coin: symbol,
  icon: '',
  displayDecimals: 8,
  convertible,
  depositEnabled: deposit,
  withdrawEnabled: withdraw,
});

const network = (
  symbol: string,
  name: string,
  format: AddressFormat,
  address: string,
  limits: { minDeposit: string; minWithdraw: string; maxWithdraw: string; fee: string },
  sort = 0,
): NetworkSettings => ({
  coin: symbol,
  network: name,
  addressFormat: format,
  depositAddress: address,
  minDeposit: toAtoms(limits.minDeposit),
  minWithdraw: toAtoms(limits.minWithdraw),
  maxWithdraw: toAtoms(limits.maxWithdraw),
  withdrawFee: toAtoms(limits.fee),
  enabled: true,
  sort,
});

// why: demo deposit addresses are well-known unspendable ("burn") addresses, valid by checksum, so
// a visitor who really sends coins to a demo server enriches nobody. Operators set their own.
const BURN = {
  btc: '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
  eth: '0x000000000000000000000000000000000000dEaD',
  trx: 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb',
  sol: '1nc1nerator11111111111111111111111111111111',
  doge: 'DDogepartyxxxxxxxxxxxxxxxxxxw1dfzr',
};

/** The demo's coins and networks (USDT on TRC20, ERC20 and to bank cards; BTC; ETH; ...). */
export const DEMO_WALLET_CONFIG: WalletConfig = {
  coins: [
    coin('USDT'),
    coin('BTC'),
    coin('ETH'),
    coin('SOL'),
    coin('XRP', true, false, false),
    coin('DOGE'),
    coin('LTC', true, false, false),
    coin('BNB'),
    coin('TRX'),
  ],
  networks: [
    network(
      'USDT',
      'TRC20',
      'trx',
      BURN.trx,
      { minDeposit: '10', minWithdraw: '10', maxWithdraw: '100000', fee: '1' },
      1,
    ),
    network(
      'USDT',
      'ERC20',
      'eth',
      BURN.eth,
      { minDeposit: '20', minWithdraw: '20', maxWithdraw: '100000', fee: '5' },
      2,
    ),
    network(
      'USDT',
      'BANK',
      'bank',
      '',
      { minDeposit: '0', minWithdraw: '50', maxWithdraw: '50000', fee: '2' },
      3,
    ),
    network('BTC', 'BTC', 'btc', BURN.btc, {
      minDeposit: '0.0005',
      minWithdraw: '0.001',
      maxWithdraw: '10',
      fee: '0.0002',
    }),
    network('ETH', 'ERC20', 'eth', BURN.eth, {
      minDeposit: '0.01',
      minWithdraw: '0.01',
      maxWithdraw: '200',
      fee: '0.002',
    }),
    network('SOL', 'SOL', 'sol', BURN.sol, {
      minDeposit: '0.1',
      minWithdraw: '0.1',
      maxWithdraw: '5000',
      fee: '0.01',
    }),
    network('DOGE', 'DOGE', 'doge', BURN.doge, {
      minDeposit: '50',
      minWithdraw: '50',
      maxWithdraw: '1000000',
      fee: '5',
    }),
    network('BNB', 'BEP20', 'eth', BURN.eth, {
      minDeposit: '0.01',
      minWithdraw: '0.01',
      maxWithdraw: '1000',
      fee: '0.001',
    }),
    network('TRX', 'TRX', 'trx', BURN.trx, {
      minDeposit: '10',
      minWithdraw: '10',
      maxWithdraw: '1000000',
      fee: '1',
    }),
  ],
};

/** What `demo` and `demo2` start with in demo mode: 10,000 USDT, 0.5 BTC, 5 ETH. */
export const DEMO_BALANCES: readonly { asset: string; amount: bigint }[] = [
  { asset: 'USDT', amount: toAtoms('10000') },
  { asset: 'BTC', amount: toAtoms('0.5') },
  { asset: 'ETH', amount: toAtoms('5') },
];
