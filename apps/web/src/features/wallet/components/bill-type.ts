import type { TFunction } from 'i18next';

/** Ledger entry types by their first part (`deposit.credit` → `deposit`), as the bills name them. */
const TYPE_KEYS: Record<string, string> = {
  deposit: 'wallet.bills.types.deposit',
  withdrawal: 'wallet.bills.types.withdrawal',
  conversion: 'wallet.bills.types.conversion',
  convert: 'wallet.bills.types.conversion',
  demo: 'wallet.bills.types.demo',
  adjustment: 'wallet.bills.types.adjustment',
  order: 'wallet.bills.types.trade',
  trade: 'wallet.bills.types.trade',
  contract: 'wallet.bills.types.contract',
  delivery: 'wallet.bills.types.contract',
  trial: 'wallet.bills.types.trial',
  reward: 'wallet.bills.types.reward',
  referral: 'wallet.bills.types.reward',
};

/** Balance kinds a bill line moved. */
const KIND_KEYS: Record<string, string> = {
  available: 'wallet.fields.available',
  frozen: 'wallet.fields.frozen',
  locked: 'wallet.bills.kinds.locked',
  trial: 'wallet.bills.kinds.trial',
  trial_frozen: 'wallet.bills.kinds.trial_frozen',
  trial_profit: 'wallet.bills.kinds.trial_profit',
  margin: 'wallet.bills.kinds.margin',
};

/** What a bill line was, in words: its entry type's family, or the raw type when it is new to us. */
export function describeBillType(t: TFunction, type: string): string {
  const key = TYPE_KEYS[type.split(/[.:_]/)[0] ?? ''];
  return key ? t(key) : type;
}

/** Which balance a bill line moved (available, frozen, …), in words. */
export function describeBillKind(t: TFunction, kind: string): string {
  const key = KIND_KEYS[kind];
  return key ? t(key) : kind;
}
