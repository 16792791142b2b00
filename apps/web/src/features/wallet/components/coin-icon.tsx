/** A coin's icon: its image when it has one, else its first letter on a tinted disc. */
export function CoinIcon({ symbol, src }: { symbol: string; src?: string | null }) {
  if (src) return <img className="coin-icon" src={src} alt="" width={32} height={32} loading="lazy" />;
  return (
    <span className="coin-icon is-letter" aria-hidden="true">
      {symbol.slice(0, 1)}
    </span>
  );
}
