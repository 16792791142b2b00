import { describe, expect, it } from 'vitest';
import { findRegisterProblem } from './validate-register.ts';

const filled = { account: 'alice', password: 'secret123', confirmation: 'secret123', captcha: null };

describe('register form checks', () => {
  it('asks for the username when the account is empty or blank, whatever the register mode', () => {
    expect(findRegisterProblem({ ...filled, account: '' })).toBe('auth.validation.usernameRequired');
    expect(findRegisterProblem({ ...filled, account: '   ' })).toBe('auth.validation.usernameRequired');
  });

  it('then asks for the password, then for a matching confirmation', () => {
    expect(findRegisterProblem({ ...filled, password: '', confirmation: '' })).toBe(
      'auth.validation.passwordRequired',
    );
    expect(findRegisterProblem({ ...filled, confirmation: 'secret124' })).toBe(
      'auth.validation.passwordsInconsistent',
    );
  });

  it('asks for the ticked terms box last, only while terms are in force', () => {
    expect(findRegisterProblem({ ...filled, termsAccepted: false })).toBe('terms.required');
    expect(findRegisterProblem({ ...filled, password: '', termsAccepted: false })).toBe(
      'auth.validation.passwordRequired',
    );
    expect(findRegisterProblem({ ...filled, termsAccepted: true })).toBeNull();
    expect(findRegisterProblem({ ...filled, termsAccepted: null })).toBeNull();
  });

  it('asks for the graphic code only when the captcha is on', () => {
    expect(findRegisterProblem({ ...filled, captcha: ' ' })).toBe('auth.validation.captchaRequired');
    expect(findRegisterProblem({ ...filled, captcha: 'ab12' })).toBeNull();
    expect(findRegisterProblem(filled)).toBeNull();
  });
});
