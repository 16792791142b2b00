/**
 * The perpetual back office's query keys. Every query of this feature starts with
 * `PERP_QUERY_KEY`, so a change (a market edited, a fund topped up) invalidates them all at once:
 * the history pages and the health check read the figures a change moves.
 */
export const PERP_QUERY_KEY = ['perp'] as const;
export const PERP_MARKETS_KEY = [...PERP_QUERY_KEY, 'markets'] as const;
