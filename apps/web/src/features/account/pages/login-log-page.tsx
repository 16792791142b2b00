import '../components/account.css';
import { useTranslation } from 'react-i18next';
import { useFormatTime } from '../../../shared/format/format-time.ts';
import { ListSkeleton } from '../../../shared/ui/list-skeleton.tsx';
import { LoadMore } from '../../../shared/ui/load-more.tsx';
import { Page } from '../../../shared/ui/page.tsx';
import { EmptyState, ErrorState } from '../../../shared/ui/state-block.tsx';
import { useLoginLog } from '../api/account.ts';

/** `/Index/loginlog`: time, address, device and result of every login to the account. */
export default function LoginLogPage() {
  const { t } = useTranslation();
  const formatTime = useFormatTime();
  const log = useLoginLog();
  const entries = log.data?.pages.flatMap((page) => page.list) ?? [];
  return (
    <Page title={t('loginLog.title')}>
      {log.isPending ? (
        <ListSkeleton rows={6} />
      ) : log.isError ? (
        <ErrorState message={log.error.message} onRetry={() => log.refetch()} />
      ) : entries.length === 0 ? (
        <EmptyState message={t('loginLog.empty')} testId="login-log-empty" />
      ) : (
        <div data-testid="login-log">
          {entries.map((entry) => (
            <div key={entry.id} className="log-row">
              <div>
                <div>{formatTime(entry.created_at)}</div>
                <div className="session-row-meta">
                  {entry.ip} · {entry.device}
                </div>
              </div>
              <span className={entry.success ? 'is-ok' : 'is-fail'}>
                {entry.success
                  ? t('loginLog.ok')
                  : t(`loginLog.reasons.${entry.reason}`, { defaultValue: t('loginLog.failed') })}
              </span>
            </div>
          ))}
          <LoadMore query={log} />
        </div>
      )}
    </Page>
  );
}
