import type { Dashboard, HealthStatus } from '@bourse/shared/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Col, Descriptions, Row, Statistic, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../../shared/format.ts';
import { ReasonModal } from '../../../shared/reason-modal.tsx';
import { useSession } from '../../../shared/session.tsx';
import { checkLedger as runLedgerCheck } from '../api/check-ledger.ts';
import { fetchDashboard } from '../api/fetch-dashboard.ts';
import { resumePlatform } from '../api/resume-platform.ts';

const STATUS_COLOURS: Record<HealthStatus, string> = { ok: 'green', degraded: 'orange', down: 'red' };
const CHECKS = ['database', 'bus', 'feed', 'ledger', 'markets', 'backup', 'halt'] as const;

export function DashboardPage() {
  const { t } = useTranslation();
  const query = useQuery({
    queryKey: ['dashboard'],
    queryFn: fetchDashboard,
    refetchInterval: 30_000,
  });
  const queryClient = useQueryClient();
  const { message } = App.useApp();
  const session = useSession();
  const [resuming, setResuming] = useState(false);
  const resume = useMutation({
    mutationFn: resumePlatform,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['dashboard'] });
      message.success(t('dashboard.resumed'));
    },
    onError: (error) => message.error(error.message),
  });
  const checkLedger = useMutation({
    mutationFn: runLedgerCheck,
    onSuccess: (ledger) => {
      queryClient.setQueryData<Dashboard>(['dashboard'], (old) => (old ? { ...old, ledger } : old));
      // why: a failed check halts the platform; the dashboard shows the halt at once.
      if (!ledger.ok) void queryClient.invalidateQueries({ queryKey: ['dashboard'] });
    },
  });
  const data = query.data;
  const figure = (value: number | null | undefined) =>
    value === null || value === undefined ? t('dashboard.unavailable') : value;
  return (
    <>
      {query.error && <Alert type="error" title={query.error.message} />}
      {data?.halt && (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 16 }}
          title={t('dashboard.halted', { time: formatTime(data.halt.haltedAt) })}
          description={
            <>
              <div>{t(`dashboard.haltReason.${data.halt.reason}`)}</div>
              <div>{data.halt.detail}</div>
            </>
          }
          action={
            session.can('platform.resume') && (
              // why: the dialog's submit button shows the request in flight.
              <Button danger onClick={() => setResuming(true)}>
                {t('dashboard.resume')}
              </Button>
            )
          }
        />
      )}
      <Row gutter={[16, 16]}>
        {(
          [
            ['users', data?.usersTotal],
            ['pendingDeposits', data?.pendingDeposits],
            ['pendingWithdrawals', data?.pendingWithdrawals],
            ['depositsToday', data?.depositsToday],
            ['withdrawalsToday', data?.withdrawalsToday],
          ] as const
        ).map(([key, value]) => (
          <Col key={key} xs={24} sm={12} lg={8}>
            <Card loading={query.isLoading}>
              <Statistic title={t(`dashboard.${key}`)} value={figure(value)} />
            </Card>
          </Col>
        ))}
        <Col xs={24} sm={12} lg={8}>
          <Card
            loading={query.isLoading}
            title={t('dashboard.ledger')}
            extra={
              <Button size="small" loading={checkLedger.isPending} onClick={() => checkLedger.mutate()}>
                {t('dashboard.checkNow')}
              </Button>
            }
          >
            {checkLedger.error && <Alert type="error" title={checkLedger.error.message} />}
            {data && (
              <>
                <Tag color={data.ledger.ok ? 'green' : 'red'}>
                  {data.ledger.ok ? t('dashboard.ledgerOk') : t('dashboard.ledgerBroken')}
                </Tag>
                <span>{t('dashboard.checkedAt', { time: formatTime(data.ledger.checkedAt) })}</span>
                <ul>
                  {data.ledger.problems.map((problem) => (
                    <li key={problem}>{problem}</li>
                  ))}
                </ul>
              </>
            )}
          </Card>
        </Col>
        <Col xs={24}>
          <Card
            loading={query.isLoading}
            title={t('dashboard.health')}
            extra={
              data && (
                <Tag color={STATUS_COLOURS[data.health.status]}>
                  {t(`dashboard.healthStatus.${data.health.status}`)}
                </Tag>
              )
            }
          >
            {data && (
              <Descriptions
                bordered
                size="small"
                column={1}
                items={CHECKS.map((name) => {
                  const check = data.health.checks[name];
                  return {
                    key: name,
                    label: t(`dashboard.checks.${name}`),
                    children: (
                      <>
                        <Tag color={STATUS_COLOURS[check.status]}>
                          {t(`dashboard.healthStatus.${check.status}`)}
                        </Tag>
                        {check.detail}
                      </>
                    ),
                  };
                })}
              />
            )}
          </Card>
        </Col>
      </Row>
      <ReasonModal
        kind={resuming ? 'reason' : null}
        title={t('dashboard.resumeTitle')}
        onCancel={() => setResuming(false)}
        onSubmit={async ({ reason }) => {
          await resume.mutateAsync(reason ?? '');
          setResuming(false);
        }}
      />
    </>
  );
}
