import { describe, expect, it } from 'vitest';
import { browsableUrl, formatStartBanner, startFacts, startFields, withoutPassword } from './banner.ts';

const INFO = {
  address: 'http://0.0.0.0:8080',
  demoAccounts: [
    { username: 'demo', password: 'demo1234' },
    { username: 'demo2', password: 'demo1234' },
  ],
  store: { dialect: 'sqlite' as const, dataDir: '/srv/bourse/data', databaseUrl: undefined },
  feed: { source: 'simulated', intervalMs: 1000 },
  bus: 'in-process',
  node: 'v24.21.0',
};

describe('the start banner', () => {
  it('tells where the app, the back office, the demo accounts and the data are', () => {
    expect(formatStartBanner(INFO)).toBe(
      [
        '',
        '  Bourse is ready',
        '',
        '  App            http://localhost:8080/',
        '  Back office    http://localhost:8080/admin/',
        '  API document   http://localhost:8080/docs',
        '  Demo accounts  demo / demo1234, demo2 / demo1234',
        '  Data           SQLite in /srv/bourse/data',
        '  Index feed     simulated, a tick every 1000 ms',
        '  Bus            in-process',
        '  Runtime        Node.js v24.21.0',
        '',
      ].join('\n'),
    );
  });

  it('names no demo accounts outside demo mode and hides a database password', () => {
    const facts = startFacts({
      ...INFO,
      demoAccounts: [],
      store: { dialect: 'postgres', dataDir: '/x', databaseUrl: 'postgres://bourse:s3cret@db:5432/bourse' },
    });
    expect(facts.map(([label]) => label)).not.toContain('Demo accounts');
    expect(Object.fromEntries(facts).Data).toBe('PostgreSQL postgres://bourse:***@db:5432/bourse');
  });

  it('gives the same facts as camel-case log fields', () => {
    expect(Object.keys(startFields(INFO))).toEqual([
      'app',
      'backOffice',
      'apiDocument',
      'demoAccounts',
      'data',
      'indexFeed',
      'bus',
      'runtime',
    ]);
  });

  it('keeps a concrete host and blanks only a wildcard one', () => {
    expect(browsableUrl('http://127.0.0.1:9000')).toBe('http://127.0.0.1:9000');
    expect(browsableUrl('http://[::]:8080')).toBe('http://localhost:8080');
    expect(withoutPassword('not a url')).toBe('(unparsable DATABASE_URL)');
  });
});
