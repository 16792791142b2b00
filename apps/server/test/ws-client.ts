import { setTimeout as sleep } from 'node:timers/promises';
import WebSocket from 'ws';
import type { TestServer } from './harness.ts';

// why: frames are compared with exact expected values, field by field.
export type Frame = any;

/** A `/ws` client that keeps every frame it got; `next` waits for the first unread one that matches. */
export async function connect(server: TestServer) {
  const socket = new WebSocket(`${server.url.replace('http', 'ws')}/ws`);
  const frames: Frame[] = [];
  let read = 0;
  socket.on('message', (data) => frames.push(JSON.parse(String(data))));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const client = {
    socket,
    frames,
    send: (message: unknown) => socket.send(JSON.stringify(message)),
    async next(match: (frame: Frame) => boolean, ms = 5000): Promise<Frame> {
      const deadline = Date.now() + ms;
      for (;;) {
        for (let i = read; i < frames.length; i++) {
          if (match(frames[i])) {
            read = i + 1;
            return frames[i];
          }
        }
        if (Date.now() > deadline)
          throw new Error(`no matching frame; got ${JSON.stringify(frames.slice(read))}`);
        await sleep(5);
      }
    },
    /** Frames on `channel` after the last one `next` returned. */
    unread: (channel: string) => frames.slice(read).filter((frame) => frame.channel === channel),
  };
  return client;
}

export const on = (channel: string) => (frame: Frame) => frame.channel === channel;
