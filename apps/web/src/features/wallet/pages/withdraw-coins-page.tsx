import '../components/wallet.css';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { PATHS, withQuery } from '../../../shared/paths.ts';
import { Amount } from '../../../shared/ui/amount.tsx';
import { ListSkeleton } from '../../../shared/ui/list-skeleton.tsx';
import { Page } from '../../../shared/ui/page.tsx';
import { EmptyState, ErrorState } from '../../../shared/ui/state-block.tsx';
import { useWithdrawCoins } from '../api/get-withdraw-coins.ts';
import { CoinList } from '../components/coin-list.tsx';
import { useQueryParam } from '../components/use-query-param.ts';

/**
 * `User/txcoin`, the withdrawal entry (the guard sent the user to set a withdrawal password and
 * save an address first): choose the coin. With `?coin=…` it goes straight to that coin's form.
 */
export default function WithdrawCoinsPage() {
  const { t } = useTranslation();
  const preset = useQueryParam('coin');
  const coins = useWithdrawCoins();
  if (preset) return <Navigate to={withQuery(PATHS.withdrawForm, { coin: preset.toUpperCase() })} replace />;

  let content: ReactNode;
  if (coins.isPending) content = <ListSkeleton />;
  else if (coins.isError)
    content = <ErrorState message={coins.error.message} onRetry={() => coins.refetch()} />;
  else if (coins.data.length === 0) content = <EmptyState message={t('wallet.withdrawCoins.empty')} />;
  else
    content = (
      <CoinList
        testIdPrefix="withdraw-coin"
        items={coins.data.map((coin) => ({
          coin: coin.coin,
          name: coin.name,
          icon: coin.icon,
          to: withQuery(PATHS.withdrawForm, { coin: coin.coin }),
          end: (
            <>
              <Amount className="wallet-row-amount" value={coin.available} decimals={coin.decimals} />
              <span className="item-row-sub">{t('wallet.fields.available')}</span>
            </>
          ),
        }))}
      />
    );
  return <Page title={t('wallet.withdrawCoins.title')}>{content}</Page>;
}
