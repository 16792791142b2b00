import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness.ts';

/** Sends `head` on a raw connection now and `rest` later; resolves with the whole answer. */
function splitRequest(port: number, head: string) {
  const socket = net.connect(port, '127.0.0.1');
  let answer = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk) => {
    answer += chunk;
  });
  const done = new Promise<string>((resolve, reject) => {
    socket.once('close', () => resolve(answer));
    socket.once('error', reject);
  });
  const connected = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return {
    sendHead: async () => {
      await connected;
      socket.write(head);
    },
    finish: (rest: string) => socket.write(rest),
    done,
  };
}

describe('a request that reaches a stopping server', () => {
  let server: TestServer | undefined;
  afterAll(async () => {
    await server?.close().catch(() => {});
  });

  it('answers 503 with the translated envelope and closes the connection', async () => {
    server = await startServer('sqlite');
    const port = Number(new URL(server.url).port);
    // why: the request is still arriving when the stop begins, so its connection is not idle and
    // stays open through the stop; it reaches the server after `close()` has started.
    const request = splitRequest(port, 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nLang: en-us\r\n');
    await request.sendHead();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const closing = server.app.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    request.finish('\r\n');
    const answer = await request.done;
    await closing;

    const [head, body] = answer.split('\r\n\r\n');
    expect(head?.split('\r\n')[0]).toBe('HTTP/1.1 503 Service Unavailable');
    expect(head?.toLowerCase()).toContain('connection: close');
    expect(JSON.parse(body ?? '')).toEqual({
      code: 1008,
      msg: 'The service is restarting. Please try again in a moment.',
      data: null,
    });
  });
});
