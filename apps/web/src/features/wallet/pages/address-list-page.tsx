import type { QueryClient } from '@tanstack/react-query';
import '../components/wallet.css';
import type { WithdrawAddress } from '@bourse/shared/api';
import Button from 'antd-mobile/es/components/button';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PATHS } from '../../../shared/paths.ts';
import { CopyButton } from '../../../shared/ui/copy-button.tsx';
import { IconPlus, IconTrash } from '../../../shared/ui/icons.tsx';
import { ListSkeleton } from '../../../shared/ui/list-skeleton.tsx';
import { Page } from '../../../shared/ui/page.tsx';
import { EmptyState, ErrorState } from '../../../shared/ui/state-block.tsx';
import { showToast } from '../../../shared/ui/toast.ts';
import { useDeleteAddress } from '../api/delete-address.ts';
import { addressesQueryOptions, useAddresses } from '../api/get-addresses.ts';
import { ConfirmSheet, preloadConfirmSheet } from '../components/confirm-sheet.tsx';

// why: the list is fetched as soon as this module loads, while the texts load and React renders.
/** Its data is asked for as soon as this page's code is in (app/routes.tsx). */
export function prefetch(client: QueryClient): void {
  void client.prefetchQuery(addressesQueryOptions());
}

/** `User/addresslist`: the saved withdrawal addresses; copy, delete, or add one. */
export default function AddressListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const addresses = useAddresses();
  const removal = useDeleteAddress();
  const [doomed, setDoomed] = useState<WithdrawAddress | null>(null);

  function remove() {
    if (!doomed) return;
    removal.mutate(doomed.id, {
      onSuccess: (body) => {
        setDoomed(null);
        showToast(body.msg, 'success');
      },
      onError: () => setDoomed(null),
    });
  }

  const addButton = (
    <Button
      block
      size="large"
      color="primary"
      className="wallet-add"
      onClick={() => navigate(PATHS.addAddress)}
      data-testid="address-add"
    >
      <IconPlus /> {t('wallet.addresses.add')}
    </Button>
  );

  let content: ReactNode;
  if (addresses.isPending) content = <ListSkeleton rows={3} />;
  else if (addresses.isError)
    content = <ErrorState message={addresses.error.message} onRetry={() => addresses.refetch()} />;
  else if (addresses.data.length === 0) content = <EmptyState message={t('wallet.addresses.empty')} />;
  else
    content = (
      <ul className="item-list" data-testid="address-list">
        {addresses.data.map((address) => (
          <li key={address.id} className="item-row" data-testid={`address-row-${address.id}`}>
            <span className="item-row-main">
              <span className="item-row-title">
                {address.coin} · {address.network}
                {address.remark && <span className="item-row-sub">{address.remark}</span>}
              </span>
              <span className="item-row-sub num">{address.address}</span>
            </span>
            <span className="wallet-row-actions">
              <CopyButton
                text={address.address}
                label={t('wallet.addresses.copy', { remark: address.remark || address.network })}
              />
              <button
                type="button"
                className="icon-button"
                aria-label={t('wallet.addresses.delete', { remark: address.remark || address.network })}
                onPointerDown={() => void preloadConfirmSheet().catch(() => undefined)}
                onClick={() => setDoomed(address)}
              >
                <IconTrash />
              </button>
            </span>
          </li>
        ))}
      </ul>
    );

  return (
    <Page title={t('wallet.addresses.title')}>
      {content}
      {addButton}
      <ConfirmSheet
        isOpen={doomed !== null}
        title={t('wallet.addresses.deleteTitle')}
        isBusy={removal.isPending}
        onClose={() => setDoomed(null)}
        onConfirm={remove}
        testId="address-delete-confirm"
        rows={
          doomed
            ? [
                { label: t('wallet.fields.network'), value: `${doomed.coin} · ${doomed.network}` },
                { label: t('wallet.fields.address'), value: <span className="num">{doomed.address}</span> },
              ]
            : []
        }
      />
    </Page>
  );
}
