import { beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { hashPassword, usePasswordHashing, verifyPassword } from '../src/platform/crypto.ts';

describe('password hashing cost', () => {
  // why: the cost is the process's, set by each server built; suites share a worker process.
  beforeEach(() => usePasswordHashing('standard'));

  it('is standard unless the environment lowers it', () => {
    expect(loadConfig({ DATA_DIR: '/nonexistent' }).passwordHashing).toBe('standard');
  });

  it('hashes with argon2id at 19 MiB and 2 passes at the standard cost', async () => {
    const stored = await hashPassword('secret123');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(stored, 'secret123')).toBe(true);
    expect(await verifyPassword(stored, 'secret124')).toBe(false);
  });

  it('hashes cheaply for tests, and each kind of hash verifies under the other setting', async () => {
    usePasswordHashing('test');
    const cheap = await hashPassword('secret123');
    expect(cheap).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,p=1\$/);
    usePasswordHashing('standard');
    const full = await hashPassword('secret123');
    expect(await verifyPassword(cheap, 'secret123')).toBe(true);
    usePasswordHashing('test');
    expect(await verifyPassword(full, 'secret123')).toBe(true);
    expect(await verifyPassword(cheap, 'wrong')).toBe(false);
  });
});
