import { describe, expect, it } from 'vitest';
import { readFrame } from './ws-frame.ts';

describe('readFrame', () => {
  it('hands a channel push to its handlers, data as sent', () => {
    expect(readFrame('{"channel":"balances","data":[{"coin":"USDT"}]}')).toEqual({
      kind: 'push',
      channel: 'balances',
      data: [{ coin: 'USDT' }],
    });
    expect(readFrame('{"channel":"spot-kline:BTCUSDT:1m","data":null}')).toEqual({
      kind: 'push',
      channel: 'spot-kline:BTCUSDT:1m',
      data: null,
    });
  });

  it('keeps the errors that name a channel away from its handlers', () => {
    // why: the server's answers to a private channel without a session, and to a bad channel.
    for (const msg of ['auth required', 'unknown channel', 'snapshot failed']) {
      expect(readFrame(JSON.stringify({ op: 'error', msg, channel: 'balances' }))).toEqual({
        kind: 'ignored',
      });
    }
    expect(readFrame('{"op":"error","msg":"auth failed"}')).toEqual({ kind: 'ignored' });
  });

  it('reads a ping and the server signing the socket out', () => {
    expect(readFrame('{"op":"ping"}')).toEqual({ kind: 'ping' });
    expect(readFrame('{"op":"error","msg":"session ended"}')).toEqual({ kind: 'signed-out' });
  });

  it('ignores what is not a frame', () => {
    for (const raw of ['not json', 'null', '42', '"text"', '{"data":[1]}', new ArrayBuffer(4)]) {
      expect(readFrame(raw)).toEqual({ kind: 'ignored' });
    }
  });
});
