import '../components/wallet.css';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PATHS, withQuery } from '../../../shared/paths.ts';
import { ListSkeleton } from '../../../shared/ui/list-skeleton.tsx';
import { Page } from '../../../shared/ui/page.tsx';
import { EmptyState, ErrorState } from '../../../shared/ui/state-block.tsx';
import { useDepositCoins } from '../api/get-deposit-coins.ts';
import { CoinList } from '../components/coin-list.tsx';

/** `User/czcoin`: choose the coin to deposit. */
export default function DepositCoinsPage() {
  const { t } = useTranslation();
  const coins = useDepositCoins();
  let content: ReactNode;
  if (coins.isPending) content = <ListSkeleton />;
  else if (coins.isError)
    content = <ErrorState message={coins.error.message} onRetry={() => coins.refetch()} />;
  else if (coins.data.length === 0) content = <EmptyState message={t('wallet.depositCoins.empty')} />;
  else
    content = (
      <CoinList
        testIdPrefix="deposit-coin"
        items={coins.data.map((coin) => ({
          coin: coin.coin,
          name: coin.name,
          icon: coin.icon,
          to: withQuery(PATHS.deposit, { coin: coin.coin }),
        }))}
      />
    );
  return <Page title={t('wallet.depositCoins.title')}>{content}</Page>;
}
