import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  AdjustBody,
  ConfirmDepositBody,
  CreateStaffBody,
  RejectBody,
  StaffLoginStep,
  TotpBody,
} from '../src/api/admin.ts';
import { NetworkSettingsBody } from '../src/api/config.ts';

/** The result key the back office shows under each field that fails. */
function problems(schema: z.ZodType, values: unknown): Record<string, string> {
  const result = schema.safeParse(values);
  if (result.success) return {};
  const found: Record<string, string> = {};
  for (const issue of result.error.issues) found[issue.path.join('.')] ??= issue.message;
  return found;
}

describe('the back office’s request schemas', () => {
  it('take the six digits of a TOTP code and a new password of 8–128 characters', () => {
    expect(problems(TotpBody, { ticket: 't', code: '123456' })).toEqual({});
    expect(problems(TotpBody, { ticket: 't', code: '12345' })).toEqual({ code: 'STAFF_TOTP_WRONG' });
    expect(problems(TotpBody, { ticket: 't', code: '12a456' })).toEqual({ code: 'STAFF_TOTP_WRONG' });
    expect(problems(TotpBody, { ticket: 't', code: '' })).toEqual({ code: 'PARAM_MISSING' });
    expect(problems(TotpBody, { ticket: 't', code: '123456', newPassword: 'short' })).toEqual({
      newPassword: 'PARAM_ERROR',
    });
  });

  it('hold amounts to 8 decimals: a credited amount above zero, an adjustment signed and not zero', () => {
    expect(problems(ConfirmDepositBody, { amount: '150.00000000' })).toEqual({});
    for (const amount of ['0', '-1', '1.123456789', '1e3', 'abc'])
      expect(problems(ConfirmDepositBody, { amount })).toEqual({ amount: 'AMOUNT_INVALID' });
    const adjust = { asset: 'USDT', reason: 'goodwill' };
    expect(problems(AdjustBody, { ...adjust, amount: '-0.5' })).toEqual({});
    for (const amount of ['0', '-0.000', '1.123456789', '--1'])
      expect(problems(AdjustBody, { ...adjust, amount })).toEqual({ amount: 'PARAM_ERROR' });
    expect(problems(AdjustBody, { ...adjust, amount: '1', reason: '  ' })).toEqual({
      reason: 'PARAM_MISSING',
    });
  });

  it('require a rejection’s reason, and name a new staff member’s rules', () => {
    expect(problems(RejectBody, { reason: '' })).toEqual({ reason: 'PARAM_MISSING' });
    expect(problems(RejectBody, { reason: 'x'.repeat(501) })).toEqual({ reason: 'PARAM_ERROR' });
    expect(problems(CreateStaffBody, { username: 'ab', password: 'long-enough', role: 'owner' })).toEqual({
      username: 'PARAM_ERROR',
    });
    expect(problems(CreateStaffBody, { username: 'anna', password: 'long-enough' })).toEqual({
      role: 'PARAM_MISSING',
    });
  });

  it('check a network’s limits against each other', () => {
    const network = {
      coin: 'usdt',
      network: 'trc20',
      addressFormat: 'trx',
      minDeposit: '10',
      minWithdraw: '10',
      maxWithdraw: '5',
      withdrawFee: '1',
      enabled: true,
    };
    expect(problems(NetworkSettingsBody, network)).toEqual({ maxWithdraw: 'CONFIG_LIMITS_INVALID' });
    expect(problems(NetworkSettingsBody, { ...network, maxWithdraw: '0' })).toEqual({});
  });
});

describe('the back office’s answers', () => {
  it('tell the two login steps apart', () => {
    expect(StaffLoginStep.parse({ step: 'totp', ticket: 'abc' })).toEqual({ step: 'totp', ticket: 'abc' });
    expect(() => StaffLoginStep.parse({ step: 'enrol', ticket: 'abc' })).toThrow();
  });
});
