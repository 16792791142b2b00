import { fromAtoms, toAtoms } from '@bourse/shared';
import { IndexConstituent } from '@bourse/shared/api';
import { z } from 'zod';
import type { Constituent } from './index-price.ts';

/** One source's part in a tick as the API, `/ws` and the store show it: prices as decimal strings. */
export function toWireConstituent(c: Constituent): IndexConstituent {
  return {
    source: c.source,
    price: c.price === null ? null : fromAtoms(c.price),
    at: c.at,
    used: c.used,
    reason: c.reason,
  };
}

/** Constituents as stored with a tick: the wire's JSON (decimal strings, never a float). */
export function constituentsToJson(constituents: readonly Constituent[]): string {
  return JSON.stringify(constituents.map(toWireConstituent));
}

const StoredConstituents = z.array(IndexConstituent);

/**
 * Stored constituents as the wire shows them (decimal-string prices). A malformed column throws:
 * the store is the record of what a contract opened and settled on.
 */
export function readWireConstituents(text: string): IndexConstituent[] {
  return StoredConstituents.parse(JSON.parse(text));
}

/** Reads stored constituents back; null (a tick recorded before they were kept) is none. */
export function constituentsFromJson(text: string | null): Constituent[] {
  if (text === null) return [];
  return readWireConstituents(text).map((c) => ({
    source: c.source,
    price: c.price === null ? null : toAtoms(c.price),
    at: c.at,
    used: c.used,
    reason: c.reason,
  }));
}
