import type { QueryClient } from '@tanstack/react-query';
import '../components/wallet.css';
import { trimDecimal } from '@bourse/shared';
import Skeleton from 'antd-mobile/es/components/skeleton';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Amount } from '../../../shared/ui/amount.tsx';
import { CopyButton } from '../../../shared/ui/copy-button.tsx';
import { Page } from '../../../shared/ui/page.tsx';
import { ErrorState } from '../../../shared/ui/state-block.tsx';
import { useAfterPaint } from '../../../shared/ui/use-after-paint.ts';
import { depositPageQueryOptions, useDepositPage } from '../api/get-deposit-page.ts';
import { AddressQr, preloadAddressQr } from '../components/address-qr.tsx';
import { OptionPicker } from '../components/option-picker.tsx';
import { useQueryParam } from '../components/use-query-param.ts';

/** Its data is asked for as soon as this page's code is in (app/routes.tsx). */
export function prefetch(client: QueryClient, search: URLSearchParams): void {
  void client.prefetchQuery(depositPageQueryOptions((search.get('coin') ?? '').toUpperCase()));
}

// why: the QR encoder is fetched as soon as this module loads, while the texts load and React
// renders. The form's code (zod, the request schemas, react-hook-form: most of the page's weight)
// is fetched once the address card is painted, so neither its download nor its start-up holds up
// that paint.
preloadAddressQr();
const DepositForm = lazy(() => import('./deposit-form.tsx'));

/**
 * `User/czpage?coin=…`: choose the network, send to the platform address (QR code, copy), then
 * report the transfer with its amount, optional hash and the voucher image. The minimum, below
 * which nothing is credited or returned, is stated before the form.
 */
export default function DepositPage() {
  const { t } = useTranslation();
  const coin = useQueryParam('coin').toUpperCase();
  const page = useDepositPage(coin);
  const [chosen, setChosen] = useState('');
  const networks = page.data?.networks ?? [];
  const network = networks.find((each) => each.network === chosen) ?? networks[0];
  const showsForm = useAfterPaint(network !== undefined);

  return (
    <Page title={t('wallet.deposit.title', { coin })}>
      {page.isPending ? (
        <Skeleton.Paragraph lineCount={8} animated />
      ) : page.isError ? (
        <ErrorState message={page.error.message} onRetry={() => page.refetch()} />
      ) : !network ? (
        <ErrorState message={t('wallet.deposit.noNetwork')} onRetry={() => page.refetch()} />
      ) : (
        // why: the address card's QR code suspends until its encoder is in (fetched beside the
        // data); the network, minimum and address show with it, as one piece.
        <Suspense fallback={<Skeleton.Paragraph lineCount={8} animated />}>
          <OptionPicker
            label={t('wallet.fields.network')}
            value={network.network}
            options={networks.map((each) => ({ value: each.network, label: each.network }))}
            onChange={setChosen}
            placeholder={t('wallet.fields.networkPlaceholder')}
            testId="deposit-network"
          />
          <p className="note" data-testid="deposit-minimum">
            {t('wallet.deposit.warning', {
              coin: page.data.coin,
              network: network.network,
              min: trimDecimal(network.min_deposit),
            })}
          </p>
          <section className="address-card" aria-label={t('wallet.deposit.address')}>
            <AddressQr value={network.address} size={168} title={t('wallet.deposit.qrTitle')} />
            <span className="address-label">{t('wallet.deposit.address')}</span>
            <div className="address-line">
              <span className="address-text num" data-testid="deposit-address">
                {network.address}
              </span>
              <CopyButton
                text={network.address}
                label={t('wallet.deposit.copyAddress')}
                testId="copy-address"
              />
            </div>
            <span className="address-label">
              {t('wallet.deposit.minimum')}{' '}
              <Amount value={network.min_deposit} decimals={page.data.decimals} unit={page.data.coin} />
            </span>
          </section>
          {showsForm && (
            <Suspense fallback={null}>
              <DepositForm key={network.network} page={page.data} network={network} />
            </Suspense>
          )}
        </Suspense>
      )}
    </Page>
  );
}
