import { z } from 'zod';
import type { Ticker } from '../markets.ts';

/** A ticker on the wire (`/apiv/Market/tickers` and the `ticker` WebSocket channel). */
export const TickerSchema = z.object({
  symbol: z.string(),
  base: z.string(),
  quote: z.string(),
  priceDecimals: z.number().int().min(0).max(8),
  price: z.string(),
  open24h: z.string(),
  high24h: z.string(),
  low24h: z.string(),
  change24h: z.string(),
  ts: z.number(),
  source: z.string(),
}) satisfies z.ZodType<Ticker>;

/** `GET /Market/tickers`: every market's ticker. */
export const TickerList = z.array(TickerSchema);
export type TickerList = z.infer<typeof TickerList>;
