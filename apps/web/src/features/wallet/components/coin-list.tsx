import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { CoinIcon } from './coin-icon.tsx';

export interface CoinListItem {
  coin: string;
  name: string;
  icon?: string;
  to: string;
  end?: ReactNode;
}

/** Coins as tappable rows: icon, symbol and name, and a figure at the end. */
export function CoinList({ items, testIdPrefix }: { items: readonly CoinListItem[]; testIdPrefix: string }) {
  return (
    <ul className="item-list">
      {items.map((item) => (
        <li key={item.coin}>
          <Link to={item.to} className="item-row" data-testid={`${testIdPrefix}-${item.coin}`}>
            <CoinIcon symbol={item.coin} src={item.icon} />
            <span className="item-row-main">
              <span className="item-row-title">{item.coin}</span>
              <span className="item-row-sub">{item.name}</span>
            </span>
            {item.end && <span className="wallet-row-end">{item.end}</span>}
          </Link>
        </li>
      ))}
    </ul>
  );
}
