import { describe, expect, it } from 'vitest';
import { needsUserInfo, resolveGuard } from './guards.ts';

const signedIn = { hasToken: true };
const anonymous = { hasToken: false };

describe('navigation guards (spec §2)', () => {
  it('sends a stored token away from /login to /', () => {
    expect(resolveGuard('/login', signedIn)).toEqual({ type: 'redirect', to: '/' });
    expect(resolveGuard('/LOGIN/', signedIn)).toEqual({ type: 'redirect', to: '/' });
    expect(resolveGuard('/login', anonymous)).toEqual({ type: 'proceed' });
  });

  it('sends anonymous visitors of a private path to /login, and lets public paths through', () => {
    for (const path of ['/Index/uoption', '/Index/security', '/Index/spwd', '/User/txcoin', '/nowhere'])
      expect(resolveGuard(path, anonymous)).toEqual({ type: 'redirect', to: '/login' });
    for (const path of ['/', '/login', '/register', '/Login/setlang', '/Trade/tradelist', '/404'])
      expect(resolveGuard(path, anonymous)).toEqual({ type: 'proceed' });
  });

  it('waits for the user info before deciding on /User/txcoin, and only there', () => {
    expect(needsUserInfo('/User/txcoin')).toBe(true);
    expect(needsUserInfo('/user/TXCOIN/')).toBe(true);
    expect(needsUserInfo('/User/addresslist')).toBe(false);
    expect(resolveGuard('/User/txcoin', signedIn)).toEqual({ type: 'needs-user-info' });
  });

  it('sends /User/txcoin to the withdrawal password first, then to the address list, then through', () => {
    expect(
      resolveGuard('/User/txcoin', { hasToken: true, userInfo: { paypassword: 0, is_address: 0 } }),
    ).toEqual({ type: 'redirect', to: '/Index/withdrawpwd' });
    // a saved address does not skip the missing password
    expect(
      resolveGuard('/User/txcoin', { hasToken: true, userInfo: { paypassword: 0, is_address: 1 } }),
    ).toEqual({ type: 'redirect', to: '/Index/withdrawpwd' });
    expect(
      resolveGuard('/User/txcoin', { hasToken: true, userInfo: { paypassword: 1, is_address: 0 } }),
    ).toEqual({ type: 'redirect', to: '/User/addresslist' });
    expect(
      resolveGuard('/User/txcoin', { hasToken: true, userInfo: { paypassword: 1, is_address: 1 } }),
    ).toEqual({ type: 'proceed' });
  });

  it('lets a signed-in user through every other page', () => {
    for (const path of ['/Index/uoption', '/Index/security', '/Index/spwd', '/Trade/tradelist'])
      expect(resolveGuard(path, signedIn)).toEqual({ type: 'proceed' });
  });
});
