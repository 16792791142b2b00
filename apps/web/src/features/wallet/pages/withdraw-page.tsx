import type { QueryClient } from '@tanstack/react-query';
import '../components/wallet.css';
import Skeleton from 'antd-mobile/es/components/skeleton';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PATHS } from '../../../shared/paths.ts';
import { Page } from '../../../shared/ui/page.tsx';
import { ErrorState } from '../../../shared/ui/state-block.tsx';
import { useAfterPaint } from '../../../shared/ui/use-after-paint.ts';
import { useWithdrawPage, withdrawPageQueryOptions } from '../api/get-withdraw-page.ts';
import { OptionPicker } from '../components/option-picker.tsx';
import { useQueryParam } from '../components/use-query-param.ts';

/** Its data is asked for as soon as this page's code is in (app/routes.tsx). */
export function prefetch(client: QueryClient, search: URLSearchParams): void {
  void client.prefetchQuery(withdrawPageQueryOptions((search.get('coin') ?? '').toUpperCase()));
}

// why: the form's code (zod, the request schemas, react-hook-form: most of the page's weight) is
// fetched once the network and notes are painted, so neither its download nor its start-up holds
// up that paint.
const WithdrawForm = lazy(() => import('./withdraw-form.tsx'));

/**
 * `User/txpage?coin=…`: withdraw to a saved address or bank card. The amount must lie within the
 * network's minimum and maximum and, with the fee on top, within the balance; the withdrawal
 * password confirms it, and a sheet spells out the figures before anything is sent.
 */
export default function WithdrawPage() {
  const { t } = useTranslation();
  const coin = useQueryParam('coin').toUpperCase();
  const page = useWithdrawPage(coin);
  const [chosen, setChosen] = useState('');
  const networks = page.data?.networks ?? [];
  const network = networks.find((each) => each.network === chosen) ?? networks[0];
  const showsForm = useAfterPaint(network !== undefined);

  return (
    <Page
      title={t('wallet.withdraw.title', { coin })}
      right={
        <Link to={PATHS.withdrawList} className="text-button nav-link">
          {t('wallet.withdraw.records')}
        </Link>
      }
    >
      {page.isPending ? (
        <Skeleton.Paragraph lineCount={8} animated />
      ) : page.isError ? (
        <ErrorState message={page.error.message} onRetry={() => page.refetch()} />
      ) : !network ? (
        <ErrorState message={t('wallet.withdraw.noNetwork')} onRetry={() => page.refetch()} />
      ) : (
        <>
          {!page.data.paypassword && (
            <p className="note" data-testid="withdraw-need-password">
              {t('wallet.withdraw.needPassword')}{' '}
              <Link to={PATHS.withdrawPassword} className="text-button">
                {t('wallet.withdraw.setPassword')}
              </Link>
            </p>
          )}
          <OptionPicker
            label={t('wallet.fields.network')}
            value={network.network}
            options={networks.map((each) => ({
              value: each.network,
              label: each.type === 'bank' ? t('wallet.withdraw.bankNetwork') : each.network,
            }))}
            onChange={setChosen}
            placeholder={t('wallet.fields.networkPlaceholder')}
            testId="withdraw-network"
          />
          <Suspense fallback={<Skeleton.Paragraph lineCount={8} animated />}>
            {showsForm ? (
              <WithdrawForm key={network.network} page={page.data} network={network} />
            ) : (
              <Skeleton.Paragraph lineCount={8} animated />
            )}
          </Suspense>
        </>
      )}
    </Page>
  );
}
