import { useQueryClient } from '@tanstack/react-query';
import Skeleton from 'antd-mobile/es/components/skeleton';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useServerNow } from '../../../shared/server-clock.ts';
import { deliveryQueryKey } from '../api/delivery-query-key.ts';
import { useContractList } from '../api/get-contract-list.ts';
import { ContractRow } from './contract-row.tsx';

/**
 * The user's open contracts with live countdowns. When one leaves the list (it settled), the
 * balances and the settled list are fetched again.
 */
export function OpenContracts() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const contracts = useContractList('open');
  const now = useServerNow();
  const records = contracts.data?.pages.flatMap((page) => page.list) ?? [];
  const ids = records.map((record) => record.id).join(',');
  const previous = useRef<string | null>(null);

  useEffect(() => {
    const before = previous.current;
    previous.current = ids;
    if (before === null) return;
    const now = new Set(ids.split(','));
    if (before.split(',').some((id) => id && !now.has(id)))
      void queryClient.invalidateQueries({
        queryKey: deliveryQueryKey,
        predicate: (query) => query.queryKey[2] !== 'open',
      });
  }, [ids, queryClient]);

  return (
    <section className="open-contracts" aria-labelledby="open-title">
      <h2 className="section-title" id="open-title">
        {t('delivery.openTitle')}
      </h2>
      {contracts.isPending ? (
        <Skeleton.Paragraph lineCount={2} animated />
      ) : contracts.isError && records.length === 0 ? (
        <p className="open-contracts-empty" role="alert">
          {t('common.loadFailed')}{' '}
          <button type="button" className="text-button" onClick={() => contracts.refetch()}>
            {t('common.retry')}
          </button>
        </p>
      ) : records.length === 0 ? (
        <p className="open-contracts-empty" data-testid="open-empty">
          {t('delivery.openEmpty')}
        </p>
      ) : (
        <ul className="item-list" data-testid="open-contracts">
          {records.map((record) => (
            <ContractRow key={record.id} record={record} now={now} />
          ))}
        </ul>
      )}
    </section>
  );
}
