import Button from 'antd-mobile/es/components/button';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

interface PagedQuery {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isFetchNextPageError: boolean;
  fetchNextPage: () => Promise<unknown>;
}

/**
 * The end of a paged list: loads the next page when it scrolls into view (infinite scroll),
 * with a button as the fallback and for retrying, and says when everything is shown.
 */
export function LoadMore({ query }: { query: PagedQuery }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  const latest = useRef(query);
  latest.current = query;

  useEffect(() => {
    const element = ref.current;
    if (!element || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      const current = latest.current;
      if (
        entries.some((entry) => entry.isIntersecting) &&
        current.hasNextPage &&
        !current.isFetchingNextPage &&
        !current.isFetchNextPageError
      )
        void current.fetchNextPage();
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  return (
    <div className="load-more" ref={ref}>
      {query.hasNextPage ? (
        <Button
          fill="none"
          color="primary"
          loading={query.isFetchingNextPage}
          onClick={() => void query.fetchNextPage()}
        >
          {query.isFetchNextPageError ? t('common.retry') : t('common.loadMore')}
        </Button>
      ) : (
        <span>{t('common.noMore')}</span>
      )}
    </div>
  );
}
