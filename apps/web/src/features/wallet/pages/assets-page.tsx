import '../components/wallet.css';
import { useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PATHS, withQuery } from '../../../shared/paths.ts';
import { Amount } from '../../../shared/ui/amount.tsx';
import { IconBill, IconConvert, IconDeposit, IconWallet, IconWithdraw } from '../../../shared/ui/icons.tsx';
import { ListSkeleton } from '../../../shared/ui/list-skeleton.tsx';
import { Page } from '../../../shared/ui/page.tsx';
import { PullToRefresh } from '../../../shared/ui/pull-to-refresh.tsx';
import { EmptyState, ErrorState } from '../../../shared/ui/state-block.tsx';
import { useAssets } from '../api/get-assets.ts';
import { useTotalValue } from '../api/get-total-value.ts';
import { walletQueryKey } from '../api/wallet-query-key.ts';
import { BalanceHero } from '../components/balance-hero.tsx';
import { CoinList } from '../components/coin-list.tsx';
import { type WalletAction, WalletActions } from '../components/wallet-actions.tsx';

const ACTIONS: readonly WalletAction[] = [
  { to: PATHS.depositCoins, labelKey: 'wallet.actions.deposit', Icon: IconDeposit, testId: 'assets-deposit' },
  { to: PATHS.withdraw, labelKey: 'wallet.actions.withdraw', Icon: IconWithdraw, testId: 'assets-withdraw' },
  { to: PATHS.convert, labelKey: 'wallet.actions.convert', Icon: IconConvert, testId: 'assets-convert' },
  { to: PATHS.bills, labelKey: 'wallet.actions.bills', Icon: IconBill, testId: 'assets-bills' },
];

/** `User/index`, the assets tab: the total in USDT, the four wallet actions and every coin held. */
export default function AssetsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const assets = useAssets();
  const total = useTotalValue();

  let list: ReactNode;
  if (assets.isPending) list = <ListSkeleton />;
  else if (assets.isError)
    list = <ErrorState message={assets.error.message} onRetry={() => assets.refetch()} />;
  else if (assets.data.coins.length === 0)
    list = (
      <EmptyState
        message={t('wallet.assets.empty')}
        action={
          <Link to={PATHS.depositCoins} className="text-button">
            {t('wallet.actions.deposit')}
          </Link>
        }
      />
    );
  else
    list = (
      <CoinList
        testIdPrefix="asset-row"
        items={assets.data.coins.map((row) => ({
          coin: row.coin,
          name: row.name,
          icon: row.icon,
          to: withQuery(PATHS.coinInfo, { coin: row.coin }),
          end: (
            <>
              <Amount className="wallet-row-amount" value={row.total} decimals={row.decimals} />
              <span className="item-row-sub">
                ≈ <Amount value={row.usdt_value} decimals={2} unit="USDT" />
              </span>
            </>
          ),
        }))}
      />
    );

  return (
    <Page
      title={t('wallet.assets.title')}
      hasBack={false}
      right={
        <Link to={PATHS.myWallet} className="icon-button" aria-label={t('wallet.myWallet.title')}>
          <IconWallet />
        </Link>
      }
    >
      <PullToRefresh onRefresh={() => queryClient.invalidateQueries({ queryKey: walletQueryKey })}>
        <BalanceHero
          label={t('wallet.assets.total')}
          value={total.data ?? assets.data?.total_usdt}
          unit="USDT"
          testId="assets-total"
        />
        <WalletActions actions={ACTIONS} />
        <h2 className="wallet-section-title">{t('wallet.assets.coins')}</h2>
        {list}
      </PullToRefresh>
    </Page>
  );
}
