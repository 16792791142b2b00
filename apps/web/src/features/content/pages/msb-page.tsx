import '../components/content.css';
import { useTranslation } from 'react-i18next';
import { ListSkeleton } from '../../../shared/ui/list-skeleton.tsx';
import { Page } from '../../../shared/ui/page.tsx';
import { EmptyState, ErrorState } from '../../../shared/ui/state-block.tsx';
import { useMsbCertificate } from '../api/get-msb-certificate.ts';

/**
 * `/Index/msb` (spec §2, "MSB certificate"): the operator's registration as staff publish it, the
 * `msb` page's text and the certificate image; it says so plainly when neither is published.
 */
export function MsbPage() {
  const { t } = useTranslation();
  const query = useMsbCertificate();
  const data = query.data;
  return (
    <Page title={t('content.msb')}>
      {query.isPending ? (
        <ListSkeleton rows={3} />
      ) : query.isError || !data ? (
        <ErrorState message={query.error?.message ?? ''} onRetry={() => query.refetch()} />
      ) : !data.page && !data.imageUrl ? (
        <EmptyState message={t('content.msbNone')} testId="msb-none" />
      ) : (
        <article className="content-article" data-testid="content-article">
          {data.page && (
            <>
              <h2>{data.page.title}</h2>
              <div className="content-body" dangerouslySetInnerHTML={{ __html: data.page.body_html }} />
            </>
          )}
          {data.imageUrl && (
            <img
              className="msb-certificate"
              src={data.imageUrl}
              alt={t('content.msbImage')}
              data-testid="msb-image"
            />
          )}
        </article>
      )}
    </Page>
  );
}
