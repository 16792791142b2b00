import { useEffect, useRef, useSyncExternalStore } from 'react';
import { getToken } from '../shared/storage.ts';
import { readFrame } from './ws-frame.ts';

/** `idle` before the first use, `connecting` on the first attempt, `open`, `reconnecting` after a loss. */
export type ConnectionStatus = 'idle' | 'connecting' | 'open' | 'reconnecting';

type Handler = (data: unknown) => void;

const MIN_DELAY_MS = 500;
const MAX_DELAY_MS = 15_000;
/** Keep the socket a little after the last subscriber leaves, so tab switches do not churn it. */
const IDLE_CLOSE_MS = 15_000;

function socketUrl(): string {
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${window.location.host}/ws`;
}

/**
 * The one WebSocket of the app (`/ws`, same origin). Channels are subscribed with
 * `{"op":"subscribe","channel":…}`; pushes arrive as `{"channel":…,"data":…}`. Reconnects with
 * exponential backoff and jitter, and re-subscribes every channel when the link returns.
 */
class RealtimeClient {
  private socket: WebSocket | null = null;
  private readonly handlers = new Map<string, Set<Handler>>();
  private readonly statusListeners = new Set<() => void>();
  private attempt = 0;
  private retryTimer: number | undefined;
  private idleTimer: number | undefined;
  private status: ConnectionStatus = 'idle';
  /** The session token `auth` is sent with on every (re)connect, for the private channels. */
  private token: string | null = null;
  /** Channels that need a signed-in socket; subscribed again after every new `auth`. */
  private readonly privateChannels = new Set<string>();

  constructor() {
    if (typeof window === 'undefined') return;
    window.addEventListener('online', () => this.reconnectNow());
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') this.reconnectNow();
    });
  }

  getStatus = (): ConnectionStatus => this.status;

  onStatus = (listener: () => void): (() => void) => {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  };

  /**
   * Signs the socket in for the private channels (`orders`, `balances`), now and after every
   * reconnect; null signs it out (the socket is reopened without a session).
   */
  authenticate(token: string | null): void {
    if (token === this.token) return;
    const signingOut = this.token !== null && token === null;
    this.token = token;
    if (signingOut) {
      this.socket?.close();
      return;
    }
    if (!token) return;
    this.send({ op: 'auth', token });
    // why: a socket the server signed out (its session ended) lost its private channels there.
    for (const channel of this.privateChannels) {
      if (this.handlers.has(channel)) this.send({ op: 'subscribe', channel });
    }
  }

  /** Marks `channel` as private: it is subscribed again whenever the socket signs in anew. */
  markPrivate(channel: string): void {
    this.privateChannels.add(channel);
  }

  /** Listens to a channel; returns the function that stops listening. */
  subscribe(channel: string, handler: Handler): () => void {
    let set = this.handlers.get(channel);
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
      this.send({ op: 'subscribe', channel });
    }
    set.add(handler);
    window.clearTimeout(this.idleTimer);
    this.ensureConnected();
    return () => {
      const current = this.handlers.get(channel);
      if (!current) return;
      current.delete(handler);
      if (current.size > 0) return;
      this.handlers.delete(channel);
      this.send({ op: 'unsubscribe', channel });
      if (this.handlers.size === 0) {
        this.idleTimer = window.setTimeout(() => this.close(), IDLE_CLOSE_MS);
      }
    };
  }

  private setStatus(next: ConnectionStatus): void {
    if (next === this.status) return;
    this.status = next;
    for (const listener of this.statusListeners) listener();
  }

  private send(message: object): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  private ensureConnected(): void {
    if (this.socket || this.retryTimer !== undefined) return;
    this.open();
  }

  private reconnectNow(): void {
    if (this.handlers.size === 0 || this.socket) return;
    window.clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.open();
  }

  private open(): void {
    if (this.status === 'idle') this.setStatus('connecting');
    const socket = new WebSocket(socketUrl());
    this.socket = socket;
    socket.onopen = () => {
      this.attempt = 0;
      this.setStatus('open');
      // why: ops after `auth` wait for its answer on the server, so private channels follow at once.
      if (this.token) this.send({ op: 'auth', token: this.token });
      for (const channel of this.handlers.keys()) this.send({ op: 'subscribe', channel });
    };
    socket.onmessage = (event) => this.dispatch(event.data);
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.handlers.size === 0) {
        this.setStatus('idle');
        return;
      }
      this.setStatus('reconnecting');
      this.scheduleRetry();
    };
  }

  private scheduleRetry(): void {
    const base = Math.min(MAX_DELAY_MS, MIN_DELAY_MS * 2 ** this.attempt);
    const delay = base / 2 + Math.random() * (base / 2);
    this.attempt += 1;
    this.retryTimer = window.setTimeout(() => {
      this.retryTimer = undefined;
      if (this.handlers.size > 0) this.open();
    }, delay);
  }

  private dispatch(raw: unknown): void {
    const frame = readFrame(raw);
    if (frame.kind === 'ping') {
      this.send({ op: 'pong' });
    } else if (frame.kind === 'signed-out') {
      // why: the server signed this socket out; the next `authenticate` with a live session signs it in again.
      this.token = null;
    } else if (frame.kind === 'push') {
      for (const handler of this.handlers.get(frame.channel) ?? []) handler(frame.data);
    }
  }

  private close(): void {
    const socket = this.socket;
    this.socket = null;
    window.clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.attempt = 0;
    socket?.close();
    this.setStatus('idle');
  }
}

export const realtime = new RealtimeClient();

/** The connection state, for the "disconnected" banner. */
export function useRealtimeStatus(): ConnectionStatus {
  return useSyncExternalStore(realtime.onStatus, realtime.getStatus, realtime.getStatus);
}

/**
 * A private channel (`orders`, `balances`): the socket is signed in with the stored session
 * token first (the server refuses private channels otherwise).
 */
export function usePrivateChannel(channel: string, onData: (data: unknown) => void, isEnabled = true): void {
  const token = getToken();
  realtime.markPrivate(channel);
  if (isEnabled && token) realtime.authenticate(token);
  useChannel(channel, onData, isEnabled && token !== null);
}

/**
 * Subscribes to `channel` while the component is mounted (and `isEnabled`); `onData` may change
 * between renders. Answers `resubscribe`, which asks for a fresh snapshot (e.g. after a gap).
 */
export function useChannel(
  channel: string,
  onData: (data: unknown) => void,
  isEnabled = true,
): { resubscribe: () => void } {
  const latest = useRef(onData);
  latest.current = onData;
  const stop = useRef<(() => void) | null>(null);
  useEffect(() => {
    if (!isEnabled) return;
    stop.current = realtime.subscribe(channel, (data) => latest.current(data));
    return () => {
      stop.current?.();
      stop.current = null;
    };
  }, [channel, isEnabled]);
  return {
    resubscribe: () => {
      if (!stop.current) return;
      stop.current();
      stop.current = realtime.subscribe(channel, (data) => latest.current(data));
    },
  };
}
