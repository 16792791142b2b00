/** What one frame from `/ws` asks of the client. */
export type ServerFrame =
  | { kind: 'ping' }
  | { kind: 'signed-out' }
  | { kind: 'push'; channel: string; data: unknown }
  | { kind: 'ignored' };

/**
 * Reads one frame from `/ws`: a ping, the server signing the socket out (its session ended), or a
 * channel's push (`{"channel":…,"data":…}`). Every other control frame is ignored, including the
 * errors that name a channel (`auth required`, `unknown channel`, `snapshot failed`): a channel's
 * handlers get only its data.
 */
export function readFrame(raw: unknown): ServerFrame {
  if (typeof raw !== 'string') return { kind: 'ignored' };
  let message: unknown;
  try {
    message = JSON.parse(raw);
  } catch {
    return { kind: 'ignored' };
  }
  if (typeof message !== 'object' || message === null) return { kind: 'ignored' };
  const { op, msg, channel, data } = message as Record<string, unknown>;
  if (op === 'ping') return { kind: 'ping' };
  if (op === 'error' && msg === 'session ended') return { kind: 'signed-out' };
  if (op !== undefined || typeof channel !== 'string') return { kind: 'ignored' };
  return { kind: 'push', channel, data };
}
