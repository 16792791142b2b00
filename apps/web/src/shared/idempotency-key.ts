/**
 * A new key for one submission of a money-moving form (withdrawal, conversion, contract): the server
 * takes a key once, so a repeated send never moves money twice. `crypto.randomUUID` needs a
 * secure context; a self-hosted install may be served over plain http, so the key is drawn from
 * `getRandomValues`, which every context has.
 */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
