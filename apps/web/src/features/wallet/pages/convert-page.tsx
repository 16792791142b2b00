import type { QueryClient } from '@tanstack/react-query';
import '../components/wallet.css';
import Skeleton from 'antd-mobile/es/components/skeleton';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Page } from '../../../shared/ui/page.tsx';
import { ErrorState } from '../../../shared/ui/state-block.tsx';
import { convertPageQueryOptions, useConvertPage } from '../api/get-convert-page.ts';
import { useQueryParam } from '../components/use-query-param.ts';

// why: the page's data and the form's code (zod, the request schemas, react-hook-form: most of the
// page's weight) are fetched as soon as this module loads, side by side, while the texts load and
// React renders; not the code first, then the data.
/** Its data is asked for as soon as this page's code is in (app/routes.tsx). */
export function prefetch(client: QueryClient): void {
  void client.prefetchQuery(convertPageQueryOptions(null));
}
const loadForm = () => import('./convert-form.tsx');
const ConvertForm = lazy(loadForm);
loadForm().catch(() => undefined);

/** Conversion: pick the coins, an amount, read the quote at the index price with the published fee, confirm. */
export default function ConvertPage() {
  const { t } = useTranslation();
  const initialFrom = useQueryParam('from').toUpperCase();
  const page = useConvertPage(null);
  return (
    <Page title={t('wallet.convert.title')}>
      {page.isPending ? (
        <Skeleton.Paragraph lineCount={8} animated />
      ) : page.isError ? (
        <ErrorState message={page.error.message} onRetry={() => page.refetch()} />
      ) : page.data.coins.length < 2 ? (
        <ErrorState message={t('wallet.convert.unavailable')} onRetry={() => page.refetch()} />
      ) : (
        <Suspense fallback={<Skeleton.Paragraph lineCount={8} animated />}>
          <ConvertForm data={page.data} initialFrom={initialFrom} />
        </Suspense>
      )}
    </Page>
  );
}
