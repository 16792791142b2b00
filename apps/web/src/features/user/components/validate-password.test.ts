import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { LoginPasswordFields, withdrawPasswordFields } from './validate-password.ts';

/** The first problem of each field, as the form shows it (a message key). */
function problems(schema: z.ZodType, values: Record<string, string>): Record<string, string> {
  const result = schema.safeParse(values);
  if (result.success) return {};
  const found: Record<string, string> = {};
  for (const issue of result.error.issues) found[String(issue.path[0])] ??= issue.message;
  return found;
}

describe('login password form', () => {
  const filled = { oldpwd: 'secret123', newpwd: 'secret456', renewpwd: 'secret456' };

  it('accepts a current password and a matching new one', () => {
    expect(problems(LoginPasswordFields, filled)).toEqual({});
  });

  it('asks for each empty field in the page’s own words', () => {
    expect(problems(LoginPasswordFields, { oldpwd: '', newpwd: '', renewpwd: '' })).toEqual({
      oldpwd: 'security.validation.oldRequired',
      newpwd: 'security.validation.newRequired',
      renewpwd: 'security.validation.confirmRequired',
    });
  });

  it('holds the new password to the server’s 6–32 rule', () => {
    expect(problems(LoginPasswordFields, { ...filled, newpwd: 'short', renewpwd: 'short' })).toEqual({
      newpwd: 'PASSWORD_INVALID',
    });
    const long = 'x'.repeat(33);
    expect(problems(LoginPasswordFields, { ...filled, newpwd: long, renewpwd: long })).toEqual({
      newpwd: 'PASSWORD_INVALID',
    });
  });

  it('says the two passwords are inconsistent under the confirmation', () => {
    expect(problems(LoginPasswordFields, { ...filled, renewpwd: 'secret457' })).toEqual({
      renewpwd: 'PASSWORDS_INCONSISTENT',
    });
  });
});

describe('withdrawal password form', () => {
  const filled = { oldpaypassword: '', paypassword: 'pay-1234', repaypassword: 'pay-1234' };

  it('needs no current password while none is set', () => {
    expect(problems(withdrawPasswordFields(false), filled)).toEqual({});
  });

  it('asks for the current one once one is set', () => {
    expect(problems(withdrawPasswordFields(true), filled)).toEqual({
      oldpaypassword: 'security.validation.oldWithdrawRequired',
    });
    expect(problems(withdrawPasswordFields(true), { ...filled, oldpaypassword: 'pay-0000' })).toEqual({});
  });

  it('holds the new one to the withdrawal-password rule, and the confirmation to it', () => {
    expect(
      problems(withdrawPasswordFields(false), { ...filled, paypassword: 'pay', repaypassword: 'pay' }),
    ).toEqual({ paypassword: 'WITHDRAW_PASSWORD_INVALID' });
    expect(problems(withdrawPasswordFields(false), { ...filled, repaypassword: 'pay-1235' })).toEqual({
      repaypassword: 'PASSWORDS_INCONSISTENT',
    });
  });
});
