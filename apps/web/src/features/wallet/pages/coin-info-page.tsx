import '../components/wallet.css';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PATHS, withQuery } from '../../../shared/paths.ts';
import { Amount } from '../../../shared/ui/amount.tsx';
import { IconBill, IconConvert, IconDeposit, IconWithdraw } from '../../../shared/ui/icons.tsx';
import { ListSkeleton } from '../../../shared/ui/list-skeleton.tsx';
import { Page } from '../../../shared/ui/page.tsx';
import { EmptyState, ErrorState } from '../../../shared/ui/state-block.tsx';
import { useBills } from '../api/get-bills.ts';
import { useCoinInfo } from '../api/get-coin-info.ts';
import { BalanceHero } from '../components/balance-hero.tsx';
import { BillRows } from '../components/bill-rows.tsx';
import { DetailList } from '../components/detail-list.tsx';
import { useQueryParam } from '../components/use-query-param.ts';
import { type WalletAction, WalletActions } from '../components/wallet-actions.tsx';

/** `User/coininfo?coin=…`: one coin's balance (available, frozen, value), its actions and latest bills. */
export default function CoinInfoPage() {
  const { t } = useTranslation();
  const coin = useQueryParam('coin').toUpperCase();
  const info = useCoinInfo(coin);
  const bills = useBills(coin);

  const actions: WalletAction[] = [];
  if (info.data?.can_deposit)
    actions.push({
      to: withQuery(PATHS.deposit, { coin }),
      labelKey: 'wallet.actions.deposit',
      Icon: IconDeposit,
      testId: 'coin-deposit',
    });
  if (info.data?.can_withdraw)
    actions.push({
      to: withQuery(PATHS.withdraw, { coin }),
      labelKey: 'wallet.actions.withdraw',
      Icon: IconWithdraw,
      testId: 'coin-withdraw',
    });
  if (info.data?.can_convert)
    actions.push({
      to: withQuery(PATHS.convert, { from: coin }),
      labelKey: 'wallet.actions.convert',
      Icon: IconConvert,
      testId: 'coin-convert',
    });
  actions.push({
    to: withQuery(PATHS.bills, { coin }),
    labelKey: 'wallet.actions.bills',
    Icon: IconBill,
    testId: 'coin-bills',
  });

  let recent: ReactNode;
  const lines = bills.data?.pages.flatMap((page) => page.list).slice(0, 5) ?? [];
  if (bills.isPending) recent = <ListSkeleton rows={3} />;
  else if (bills.isError)
    recent = <ErrorState message={bills.error.message} onRetry={() => bills.refetch()} />;
  else if (lines.length === 0) recent = <EmptyState message={t('wallet.bills.empty')} />;
  else recent = <BillRows lines={lines} />;

  return (
    <Page title={coin || t('wallet.coinInfo.title')}>
      {info.isError ? (
        <ErrorState message={info.error.message} onRetry={() => info.refetch()} />
      ) : (
        <>
          <BalanceHero
            label={t('wallet.coinInfo.total')}
            value={info.data?.total}
            unit={coin}
            decimals={info.data?.decimals}
            testId="coin-total"
            sub={
              info.data && (
                <>
                  ≈ <Amount value={info.data.usdt_value} decimals={2} unit="USDT" />
                </>
              )
            }
          />
          {info.data && (
            <DetailList
              rows={[
                {
                  label: t('wallet.fields.available'),
                  value: <Amount value={info.data.available} decimals={info.data.decimals} />,
                  testId: 'coin-available',
                },
                {
                  label: t('wallet.fields.frozen'),
                  value: <Amount value={info.data.frozen} decimals={info.data.decimals} />,
                  testId: 'coin-frozen',
                },
              ]}
            />
          )}
          <WalletActions actions={actions} />
          <h2 className="wallet-section-title">
            {t('wallet.coinInfo.recent')}
            <Link to={withQuery(PATHS.bills, { coin })} className="text-button">
              {t('wallet.coinInfo.allBills')}
            </Link>
          </h2>
          {recent}
        </>
      )}
    </Page>
  );
}
