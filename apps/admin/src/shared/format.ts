/** Local date and time of a unix-millisecond instant. */
export function formatTime(ms: number | null | undefined | string): string {
  if (ms === null || ms === undefined || ms === '') return '—';
  const value = typeof ms === 'string' ? Number(ms) : ms;
  if (!Number.isFinite(value)) return '—';
  return new Date(value).toLocaleString();
}

/** A record's before/after JSON, shown as text. */
export function formatJson(value: unknown): string {
  if (value === null || value === undefined) return '';
  return JSON.stringify(value);
}

/** A decimal string without trailing zeros, as staff type it (`"10.50000000"` → `"10.5"`). */
export { trimDecimal } from '@bourse/shared';
