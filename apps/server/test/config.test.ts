import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';

describe('DEMO depends on NODE_ENV', () => {
  it('is on by default outside production, so `npm start` can be tried at once', () => {
    expect(loadConfig({}).demo).toBe(true);
    expect(loadConfig({ NODE_ENV: 'development' }).demo).toBe(true);
  });

  it('can be turned off outside production', () => {
    expect(loadConfig({ DEMO: 'off' }).demo).toBe(false);
  });

  it('is off by default in production', () => {
    const config = loadConfig({ NODE_ENV: 'production' });
    expect(config.production).toBe(true);
    expect(config.demo).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', DEMO: '' }).demo).toBe(false);
  });

  it('is on in production only when DEMO=on is set explicitly', () => {
    expect(loadConfig({ NODE_ENV: 'production', DEMO: 'on' }).demo).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production', DEMO: 'off' }).demo).toBe(false);
  });

  it('rejects a value that is neither on nor off', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DEMO: 'maybe' })).toThrow(/expected on or off/);
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
