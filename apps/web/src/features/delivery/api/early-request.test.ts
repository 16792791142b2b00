import { afterEach, describe, expect, it, vi } from 'vitest';

const session = vi.hoisted(() => ({ hasToken: true }));
vi.mock('../../../shared/storage.ts', () => ({ hasToken: () => session.hasToken }));

const { earlyRequest } = await import('./early-request.ts');

afterEach(() => {
  session.hasToken = true;
  vi.useRealTimers();
});

describe('earlyRequest', () => {
  it('hands the early answer to the first taker only', async () => {
    let calls = 0;
    const first = earlyRequest(async () => ++calls);
    first.start();
    first.start();
    expect(calls).toBe(1);
    await expect(first.take()).resolves.toBe(1);
    await expect(first.take()).resolves.toBe(2);
  });

  it('asks again when the early request failed', async () => {
    const request = vi.fn().mockRejectedValueOnce(new Error('network')).mockResolvedValueOnce('fresh');
    const first = earlyRequest(request);
    first.start();
    await expect(first.take()).resolves.toBe('fresh');
    expect(request).toHaveBeenCalledTimes(2);
  });

  it('does not start without a session', async () => {
    session.hasToken = false;
    const request = vi.fn().mockResolvedValue('answer');
    earlyRequest(request).start();
    expect(request).not.toHaveBeenCalled();
  });

  it('leaves an old answer aside', async () => {
    vi.useFakeTimers();
    let calls = 0;
    const first = earlyRequest(async () => ++calls);
    first.start();
    vi.advanceTimersByTime(60_000);
    await expect(first.take()).resolves.toBe(2);
  });
});
