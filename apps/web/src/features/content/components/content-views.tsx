import './content.css';
import type { ContentDetail } from '@bourse/shared/api';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useFormatTime } from '../../../shared/format/format-time.ts';
import { withQuery } from '../../../shared/paths.ts';
import { ListSkeleton } from '../../../shared/ui/list-skeleton.tsx';
import { LoadMore } from '../../../shared/ui/load-more.tsx';
import { Page } from '../../../shared/ui/page.tsx';
import { EmptyState, ErrorState } from '../../../shared/ui/state-block.tsx';
import { type ContentKind, useContentList } from '../api/content.ts';

/** A list of announcements or help articles: pinned first, newest first, more on demand. */
export function ContentListPage(props: {
  kind: ContentKind;
  title: string;
  empty: string;
  detailPath: string;
}) {
  const { t } = useTranslation();
  const formatTime = useFormatTime();
  const query = useContentList(props.kind);
  const list = query.data?.pages.flatMap((page) => page.list) ?? [];
  return (
    <Page title={props.title}>
      {query.isPending ? (
        <ListSkeleton rows={6} />
      ) : query.isError ? (
        <ErrorState message={query.error.message} onRetry={() => query.refetch()} />
      ) : list.length === 0 ? (
        <EmptyState message={props.empty} testId="content-empty" />
      ) : (
        <div className="content-list" data-testid="content-list">
          {list.map((item) => (
            <Link
              key={item.id}
              to={withQuery(props.detailPath, { id: String(item.id) })}
              className="content-row"
              data-testid={`content-${item.id}`}
            >
              <span className="content-row-title">
                {item.pinned && <span className="content-pinned">{t('content.pinned')}</span>}
                <span>{item.title}</span>
              </span>
              {item.excerpt && <span className="content-row-excerpt">{item.excerpt}</span>}
              <span className="content-row-time">{formatTime(item.published_at)}</span>
            </Link>
          ))}
          <LoadMore query={query} />
        </div>
      )}
    </Page>
  );
}

/**
 * One article. Its body is HTML the server sanitised when staff saved it (paragraphs, emphasis,
 * lists, headings, links, this site's images; no script, style or handler), and the page's
 * Content-Security-Policy refuses inline script besides.
 */
export function ContentArticlePage(props: {
  title: string;
  query: {
    isPending: boolean;
    isError: boolean;
    error: Error | null;
    data?: ContentDetail;
    refetch: () => unknown;
  };
  showTime?: boolean;
  before?: ReactNode;
}) {
  const formatTime = useFormatTime();
  const { query } = props;
  return (
    <Page title={props.title}>
      {props.before}
      {query.isPending ? (
        <ListSkeleton rows={3} />
      ) : query.isError || !query.data ? (
        <ErrorState message={query.error?.message ?? ''} onRetry={() => query.refetch()} />
      ) : (
        <article className="content-article" data-testid="content-article">
          <h2>{query.data.title}</h2>
          {props.showTime !== false && (
            <p className="content-article-time">{formatTime(query.data.published_at)}</p>
          )}
          <div className="content-body" dangerouslySetInnerHTML={{ __html: query.data.body_html }} />
        </article>
      )}
    </Page>
  );
}
