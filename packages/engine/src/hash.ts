import type { BookSnapshot, MarketSpec, RestingOrder, TriggerOrder } from './types.ts';

const TWO_32 = 4294967296;

/**
 * A 64-bit non-cryptographic hash built from two independent 32-bit multiply-rotate lanes
 * (murmur3-style mixing of 32-bit words). Pure JavaScript: no platform crypto, no I/O.
 */
class StateHasher {
  private h1 = 0x9747b28c;
  private h2 = 0x2545f491;
  private words = 0;

  writeWord(word: number): void {
    let k1 = Math.imul(word | 0, 0xcc9e2d51);
    k1 = Math.imul((k1 << 15) | (k1 >>> 17), 0x1b873593);
    let h1 = this.h1 ^ k1;
    h1 = (h1 << 13) | (h1 >>> 19);
    this.h1 = (Math.imul(h1, 5) + 0xe6546b64) | 0;

    let k2 = Math.imul(word | 0, 0x85ebca6b);
    k2 = Math.imul((k2 << 13) | (k2 >>> 19), 0xc2b2ae35);
    let h2 = this.h2 ^ k2;
    h2 = (h2 << 17) | (h2 >>> 15);
    this.h2 = (Math.imul(h2, 9) + 0x7a3f1c55) | 0;
    this.words++;
  }

  /** Writes a safe integer as its high and low 32-bit words. */
  writeNumber(value: number): void {
    const high = Math.floor(value / TWO_32);
    this.writeWord(high | 0);
    this.writeWord((value - high * TWO_32) >>> 0);
  }

  writeString(value: string): void {
    this.writeWord(value.length);
    for (let i = 0; i < value.length; i++) this.writeWord(value.charCodeAt(i));
  }

  digest(): string {
    const a = finalize(this.h1 ^ this.words);
    const b = finalize(this.h2 ^ this.words ^ a);
    return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
  }
}

function finalize(value: number): number {
  let h = value;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h;
}

function writeSpec(hasher: StateHasher, spec: MarketSpec): void {
  hasher.writeString(spec.symbol);
  hasher.writeNumber(spec.tickSize);
  hasher.writeNumber(spec.lotSize);
  hasher.writeNumber(spec.minPrice);
  hasher.writeNumber(spec.maxPrice);
  hasher.writeNumber(spec.maxQty);
  hasher.writeString(spec.selfTradePrevention);
  hasher.writeString(spec.triggerSource);
}

function writeResting(hasher: StateHasher, orders: readonly RestingOrder[]): void {
  hasher.writeNumber(orders.length);
  for (const order of orders) {
    hasher.writeNumber(order.orderId);
    hasher.writeNumber(order.userId);
    hasher.writeString(order.side);
    hasher.writeNumber(order.price);
    hasher.writeNumber(order.qty);
    hasher.writeNumber(order.filledQty);
    hasher.writeNumber(order.filledQuote);
  }
}

function writeTriggers(hasher: StateHasher, orders: readonly TriggerOrder[]): void {
  hasher.writeNumber(orders.length);
  for (const order of orders) {
    hasher.writeNumber(order.orderId);
    hasher.writeNumber(order.userId);
    hasher.writeString(order.side);
    hasher.writeString(order.orderType);
    hasher.writeString(order.tif);
    hasher.writeNumber(order.price);
    hasher.writeNumber(order.qty);
    hasher.writeNumber(order.quoteAmount);
    hasher.writeNumber(order.triggerPrice);
    hasher.writeString(order.triggerDirection);
  }
}

/**
 * Hashes a canonical snapshot to 16 hex characters. Equal states give equal snapshots and so equal
 * hashes; different states collide only by chance (non-cryptographic: for replay and cross-checks,
 * not for adversarial integrity).
 */
export function hashSnapshot(snapshot: BookSnapshot): string {
  const hasher = new StateHasher();
  hasher.writeNumber(snapshot.version);
  writeSpec(hasher, snapshot.spec);
  hasher.writeNumber(snapshot.lastSeq);
  hasher.writeNumber(snapshot.lastPrice);
  writeResting(hasher, snapshot.bids);
  writeResting(hasher, snapshot.asks);
  writeTriggers(hasher, snapshot.triggers);
  return hasher.digest();
}
