import '../components/account.css';
import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLiveUnread } from '../../../api/unread-notices.ts';
import { useFormatTime } from '../../../shared/format/format-time.ts';
import { PATHS, withQuery } from '../../../shared/paths.ts';
import { ListSkeleton } from '../../../shared/ui/list-skeleton.tsx';
import { LoadMore } from '../../../shared/ui/load-more.tsx';
import { Page } from '../../../shared/ui/page.tsx';
import { EmptyState, ErrorState } from '../../../shared/ui/state-block.tsx';
import { useNotices, useReadNotice } from '../api/account.ts';
import { AntiPhishingBanner } from '../components/anti-phishing-banner.tsx';

/** `/Index/notice`: the user's notifications, newest first, unread ones marked; read all. */
export default function NoticeListPage() {
  const { t } = useTranslation();
  const formatTime = useFormatTime();
  const notices = useNotices();
  const readAll = useReadNotice();
  const unread = useLiveUnread();
  const first = notices.data?.pages[0];
  const list = notices.data?.pages.flatMap((page) => page.list) ?? [];

  return (
    <Page
      title={t('notices.title')}
      right={
        unread > 0 ? (
          <Button
            size="mini"
            fill="none"
            loading={readAll.isPending}
            onClick={() => readAll.mutate(0)}
            data-testid="notices-read-all"
          >
            {t('notices.readAll')}
          </Button>
        ) : undefined
      }
    >
      {first && <AntiPhishingBanner code={first.anti_phishing} />}
      {notices.isPending ? (
        <ListSkeleton rows={6} />
      ) : notices.isError ? (
        <ErrorState message={notices.error.message} onRetry={() => notices.refetch()} />
      ) : list.length === 0 ? (
        <EmptyState message={t('notices.empty')} testId="notices-empty" />
      ) : (
        <div className="notice-list" data-testid="notice-list">
          {list.map((notice) => (
            <Link
              key={notice.id}
              to={withQuery(PATHS.noticeDetail, { id: String(notice.id) })}
              className={notice.read ? 'notice-row is-read' : 'notice-row'}
              data-testid={`notice-${notice.id}`}
            >
              <span className="notice-row-head">
                {!notice.read && <span className="notice-dot" role="img" aria-label={t('notices.unread')} />}
                <span className="notice-row-title">{notice.title}</span>
              </span>
              <span className="notice-row-summary">{notice.summary}</span>
              <span className="notice-row-time">{formatTime(notice.created_at)}</span>
            </Link>
          ))}
          <LoadMore query={notices} />
        </div>
      )}
    </Page>
  );
}
