import '../components/account.css';
import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import { useFormatTime } from '../../../shared/format/format-time.ts';
import { ListSkeleton } from '../../../shared/ui/list-skeleton.tsx';
import { Page } from '../../../shared/ui/page.tsx';
import { ErrorState } from '../../../shared/ui/state-block.tsx';
import { showToast } from '../../../shared/ui/toast.ts';
import { useEndSession, useSessions } from '../api/account.ts';

/** `/Index/sessions`: every live session with device, address and last use; end one, or all others. */
export default function SessionsPage() {
  const { t } = useTranslation();
  const formatTime = useFormatTime();
  const sessions = useSessions();
  const end = useEndSession();
  const others = sessions.data?.filter((s) => !s.current).length ?? 0;

  function endSession(id: number | 'others') {
    end.mutate(id, { onSuccess: (body) => showToast(body.msg, 'success') });
  }

  return (
    <Page title={t('sessions.title')}>
      {sessions.isPending ? (
        <ListSkeleton rows={3} />
      ) : sessions.isError ? (
        <ErrorState message={sessions.error.message} onRetry={() => sessions.refetch()} />
      ) : (
        <>
          <div data-testid="session-list">
            {sessions.data.map((session) => (
              <div key={session.id} className="session-row" data-testid={`session-${session.id}`}>
                <div className="session-row-main">
                  <div className="session-row-device">{session.device || t('sessions.unknownDevice')}</div>
                  <div className="session-row-meta">
                    {session.ip} · {t('sessions.lastUsed', { time: formatTime(session.last_used_at) })}
                  </div>
                </div>
                {session.current ? (
                  <span className="session-current">{t('sessions.current')}</span>
                ) : (
                  <Button
                    size="mini"
                    color="danger"
                    fill="outline"
                    disabled={end.isPending}
                    onClick={() => endSession(session.id)}
                    data-testid={`session-end-${session.id}`}
                  >
                    {t('sessions.end')}
                  </Button>
                )}
              </div>
            ))}
          </div>
          {others > 0 && (
            <div className="account-form">
              <Button
                block
                size="large"
                color="danger"
                fill="outline"
                className="form-actions"
                loading={end.isPending}
                onClick={() => endSession('others')}
                data-testid="session-end-others"
              >
                {t('sessions.endOthers')}
              </Button>
            </div>
          )}
        </>
      )}
    </Page>
  );
}
