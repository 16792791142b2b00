/** `BTCUSDT` → `BTC/USDT` (the quote is the last known one the symbol ends with). */
export function pairLabel(symbol: string, base?: string, quote?: string): string {
  if (base && quote) return `${base}/${quote}`;
  const found = ['USDT', 'USDC', 'BTC', 'ETH'].find((q) => symbol.length > q.length && symbol.endsWith(q));
  return found ? `${symbol.slice(0, -found.length)}/${found}` : symbol;
}
