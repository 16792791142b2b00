import type { Ticker } from '@bourse/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useChannel } from '../../../api/ws.ts';
import { tickersQueryKey } from './get-tickers.ts';

function isTickerList(data: unknown): data is Ticker[] {
  return (
    Array.isArray(data) && data.every((t) => t && typeof t.symbol === 'string' && typeof t.price === 'string')
  );
}

/**
 * Live tickers over `/ws` (`{"op":"subscribe","channel":"ticker"}`): every push replaces the
 * cached list, so the page renders from one source whether data came by HTTP or WebSocket.
 * Pushes may carry some markets only; those are merged into the list.
 */
export function useTickerStream(): void {
  const queryClient = useQueryClient();
  useChannel('ticker', (data) => {
    if (!isTickerList(data)) return;
    queryClient.setQueryData<Ticker[]>(tickersQueryKey, (previous) => {
      if (!previous || previous.length === 0) return data;
      const bySymbol = new Map(data.map((t) => [t.symbol, t]));
      const merged = previous.map((t) => bySymbol.get(t.symbol) ?? t);
      for (const t of data) if (!previous.some((p) => p.symbol === t.symbol)) merged.push(t);
      return merged;
    });
  });
}
