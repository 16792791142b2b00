import { describe, expect, it } from 'vitest';
import { loadBackupConfig, loadConfig } from '../src/config.ts';

/** A production start needs real index sources (below); these tests are about other settings. */
const PRODUCTION = { NODE_ENV: 'production', INDEX_SOURCES: 'binance,okx,bybit' };

describe('DEMO depends on NODE_ENV', () => {
  it('is on by default outside production, so `npm start` can be tried at once', () => {
    expect(loadConfig({}).demo).toBe(true);
    expect(loadConfig({ NODE_ENV: 'development' }).demo).toBe(true);
  });

  it('can be turned off outside production', () => {
    expect(loadConfig({ DEMO: 'off' }).demo).toBe(false);
  });

  it('is off by default in production', () => {
    const config = loadConfig(PRODUCTION);
    expect(config.production).toBe(true);
    expect(config.demo).toBe(false);
    expect(loadConfig({ ...PRODUCTION, DEMO: '' }).demo).toBe(false);
  });

  it('is on in production only when DEMO=on is set explicitly', () => {
    expect(loadConfig({ ...PRODUCTION, DEMO: 'on' }).demo).toBe(true);
    expect(loadConfig({ ...PRODUCTION, DEMO: 'off' }).demo).toBe(false);
  });

  it('rejects a value that is neither on nor off', () => {
    expect(() => loadConfig({ ...PRODUCTION, DEMO: 'maybe' })).toThrow(/expected on or off/);
  });
});

describe('DEMO_IDLE_MINUTES', () => {
  it('pauses the demo bots after 15 minutes without a customer by default; 0 never pauses them', () => {
    expect(loadConfig({}).demoIdleMs).toBe(15 * 60_000);
    expect(loadConfig({ DEMO_IDLE_MINUTES: '60' }).demoIdleMs).toBe(60 * 60_000);
    expect(loadConfig({ DEMO_IDLE_MINUTES: '0' }).demoIdleMs).toBe(0);
  });

  it('takes whole minutes up to a day', () => {
    for (const bad of ['-1', '1.5', 'soon', '1441']) {
      expect(() => loadConfig({ DEMO_IDLE_MINUTES: bad }), bad).toThrow(/DEMO_IDLE_MINUTES/);
    }
  });
});

describe('TRUST_PROXY', () => {
  it('is off by default and for off, false and 0', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    for (const value of ['off', 'false', '0', ''])
      expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toBe(false);
  });

  it('takes on/true, a hop count, or a comma list of addresses and CIDRs', () => {
    expect(loadConfig({ TRUST_PROXY: 'on' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: 'TRUE' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 10.1.0.0/16,::1,fd00::/8 , loopback' }).trustProxy).toEqual([
      '10.0.0.1',
      '10.1.0.0/16',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
  });

  it('rejects what is not an address or CIDR', () => {
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.1,proxy.example' })).toThrow(/proxy\.example/);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ TRUST_PROXY: '::/129' })).toThrow(/TRUST_PROXY/);
  });
});

describe('METRICS_TOKEN and WebSocket limits', () => {
  it('leaves /metrics to loopback unless a long enough token is set', () => {
    expect(loadConfig({}).metricsToken).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: '' }).metricsToken).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: 'x'.repeat(16) }).metricsToken).toBe('x'.repeat(16));
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/at least 16/);
  });

  it('reads the heartbeat period and the per-address connection cap', () => {
    expect(loadConfig({}).ws).toEqual({ heartbeatMs: 30_000, connectionsPerIp: 20 });
    expect(loadConfig({ WS_HEARTBEAT_SECONDS: '5', WS_CONNECTIONS_PER_IP: '3' }).ws).toEqual({
      heartbeatMs: 5_000,
      connectionsPerIp: 3,
    });
  });
});

describe('index sources', () => {
  it('default to none: the simulated feed, random from node:crypto (no seed)', () => {
    const config = loadConfig({});
    expect(config.indexSources).toEqual({
      venues: [],
      urls: {},
      staleMs: 10_000,
      outlierBps: 300,
      minSources: 2,
      symbolMap: [],
    });
    expect(config.feedSeed).toBeUndefined();
  });

  it('reads venues, their addresses, the aggregator settings and initial symbol mappings', () => {
    const config = loadConfig({
      INDEX_SOURCES: 'binance, OKX,bybit',
      INDEX_SOURCE_URLS: 'binance=http://127.0.0.1:4001,okx=http://127.0.0.1:4002',
      INDEX_SOURCE_STALE_MS: '4000',
      INDEX_OUTLIER_BPS: '150',
      INDEX_MIN_SOURCES: '3',
      INDEX_SYMBOL_MAP: 'BTCUSDT:coinbase=BTC/USD; ETHUSDT:okx=-',
    });
    expect(config.indexSources).toEqual({
      venues: ['binance', 'okx', 'bybit'],
      urls: { binance: 'http://127.0.0.1:4001', okx: 'http://127.0.0.1:4002' },
      staleMs: 4000,
      outlierBps: 150,
      minSources: 3,
      symbolMap: [
        { symbol: 'BTCUSDT', venue: 'coinbase', venueSymbol: 'BTC/USD' },
        { symbol: 'ETHUSDT', venue: 'okx', venueSymbol: null },
      ],
    });
  });

  it('refuses unknown venues, bad addresses, bad mappings and a minimum above the venues listed', () => {
    expect(() => loadConfig({ INDEX_SOURCES: 'binance,nosuchvenue' })).toThrow(/INDEX_SOURCES.*nosuchvenue/);
    expect(() => loadConfig({ INDEX_SOURCES: 'binance,binance' })).toThrow(/INDEX_SOURCES/);
    expect(() => loadConfig({ INDEX_SOURCE_URLS: 'binance=ftp://x' })).toThrow(/INDEX_SOURCE_URLS/);
    expect(() => loadConfig({ INDEX_SYMBOL_MAP: 'BTCUSDT=BTC/USD' })).toThrow(/INDEX_SYMBOL_MAP/);
    expect(() => loadConfig({ INDEX_SOURCES: 'binance', INDEX_MIN_SOURCES: '2' })).toThrow(
      /INDEX_MIN_SOURCES/,
    );
  });

  it('a production start without INDEX_SOURCES is refused, naming the setting', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/INDEX_SOURCES/);
    expect(loadConfig(PRODUCTION).indexSources.venues).toEqual(['binance', 'okx', 'bybit']);
  });
});

describe('FEED_SEED is for tests only', () => {
  it('is refused outside NODE_ENV=test unless FEED_SEED_UNSAFE=on, which is flagged for a warning', () => {
    expect(() => loadConfig({ FEED_SEED: '7' })).toThrow(/FEED_SEED.*tests only/);
    expect(() => loadConfig({ FEED_SEED: '7', NODE_ENV: 'development' })).toThrow(/FEED_SEED/);
    expect(loadConfig({ FEED_SEED: '7', NODE_ENV: 'test' })).toMatchObject({
      feedSeed: 7,
      feedSeedUnsafe: false,
    });
    expect(loadConfig({ FEED_SEED: '7', FEED_SEED_UNSAFE: 'on' })).toMatchObject({
      feedSeed: 7,
      feedSeedUnsafe: true,
    });
    expect(loadConfig({ FEED_SEED: '' }).feedSeed).toBeUndefined();
  });
});

describe('PASSWORD_HASH is for tests only', () => {
  it('hashes at full cost by default; the cheap kind only under NODE_ENV=test, never in production', () => {
    expect(loadConfig({}).passwordHashing).toBe('standard');
    expect(loadConfig({ PASSWORD_HASH: 'test', NODE_ENV: 'test' }).passwordHashing).toBe('test');
    expect(() => loadConfig({ PASSWORD_HASH: 'test' })).toThrow(/PASSWORD_HASH.*tests only/);
    expect(() => loadConfig({ PASSWORD_HASH: 'test', NODE_ENV: 'development' })).toThrow(/PASSWORD_HASH/);
    expect(() => loadConfig({ PASSWORD_HASH: 'weak', NODE_ENV: 'test' })).toThrow();
    // a production start refuses it however it is given, an override in code included
    expect(() => loadConfig(PRODUCTION, { passwordHashing: 'test' })).toThrow(/PASSWORD_HASH.*full cost/);
  });
});

describe('backups', () => {
  it('go to DATA_DIR/backups every 24 hours, keeping 7, by default', () => {
    const config = loadConfig({ DATA_DIR: '/srv/bourse' });
    expect(config.backup).toEqual({ dir: '/srv/bourse/backups', everyMs: 24 * 60 * 60_000, keep: 7 });
    expect(loadBackupConfig({ DATA_DIR: '/srv/bourse' })).toEqual({
      dataDir: '/srv/bourse',
      databaseUrl: undefined,
      backupDir: '/srv/bourse/backups',
    });
  });

  it('take BACKUP_DIR, BACKUP_EVERY_HOURS (0 = off) and BACKUP_KEEP', () => {
    const config = loadConfig({ BACKUP_DIR: '/mnt/b', BACKUP_EVERY_HOURS: '0', BACKUP_KEEP: '30' });
    expect(config.backup).toEqual({ dir: '/mnt/b', everyMs: 0, keep: 30 });
    expect(() => loadConfig({ BACKUP_KEEP: '0' })).toThrow();
    expect(() => loadConfig({ BACKUP_EVERY_HOURS: '-1' })).toThrow();
  });
});
