import '../components/account.css';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useFormatTime } from '../../../shared/format/format-time.ts';
import { ListSkeleton } from '../../../shared/ui/list-skeleton.tsx';
import { Page } from '../../../shared/ui/page.tsx';
import { ErrorState } from '../../../shared/ui/state-block.tsx';
import { useNotice, useReadNotice } from '../api/account.ts';
import { AntiPhishingBanner } from '../components/anti-phishing-banner.tsx';

/** `/Index/noticeinfo?id=` (white page, spec §2): one notification, marked read when opened. */
export default function NoticeDetailPage() {
  const { t } = useTranslation();
  const formatTime = useFormatTime();
  const [params] = useSearchParams();
  const id = Number(params.get('id') ?? 0);
  const notice = useNotice(Number.isSafeInteger(id) ? id : 0);
  const markRead = useReadNotice();
  const isUnread = notice.data?.read === 0;
  const { mutate } = markRead;

  useEffect(() => {
    if (isUnread) mutate(id);
  }, [isUnread, id, mutate]);

  return (
    <Page title={t('notices.detailTitle')}>
      {notice.isPending ? (
        <ListSkeleton rows={3} />
      ) : notice.isError ? (
        <ErrorState message={notice.error.message} onRetry={() => notice.refetch()} />
      ) : (
        <article className="notice-detail" data-testid="notice-detail">
          <AntiPhishingBanner code={notice.data.anti_phishing} />
          <h2>{notice.data.title}</h2>
          <p className="notice-detail-time">{formatTime(notice.data.created_at)}</p>
          <div className="notice-detail-body">
            {notice.data.content.split(/\n{2,}/).map((paragraph, i) => (
              <p key={i}>{paragraph}</p>
            ))}
          </div>
        </article>
      )}
    </Page>
  );
}
