import '../components/wallet.css';
import Skeleton from 'antd-mobile/es/components/skeleton';
import { useTranslation } from 'react-i18next';
import { useFormatTime } from '../../../shared/format/format-time.ts';
import { Amount } from '../../../shared/ui/amount.tsx';
import { Page } from '../../../shared/ui/page.tsx';
import { ErrorState } from '../../../shared/ui/state-block.tsx';
import { useWithdrawal } from '../api/get-withdrawal.ts';
import { DetailList } from '../components/detail-list.tsx';
import { StatusTag } from '../components/status-tag.tsx';
import { useQueryParam } from '../components/use-query-param.ts';

/** `User/txinfo?id=…`: one withdrawal with its state, destination, quota, fee and actual arrival. */
export default function WithdrawalDetailPage() {
  const { t } = useTranslation();
  const formatTime = useFormatTime();
  const withdrawal = useWithdrawal(useQueryParam('id'));
  const record = withdrawal.data;

  return (
    <Page title={t('wallet.withdrawalDetail.title')}>
      {withdrawal.isPending ? (
        <Skeleton.Paragraph lineCount={8} animated />
      ) : withdrawal.isError || !record ? (
        <ErrorState message={withdrawal.error?.message} onRetry={() => withdrawal.refetch()} />
      ) : (
        <>
          <section className="detail-status">
            <Amount className="detail-status-amount" value={record.amount} unit={record.coin} />
            <StatusTag status={record.status} testId="withdrawal-status" />
          </section>
          <DetailList
            rows={[
              { label: t('wallet.fields.coin'), value: record.coin },
              {
                label: t('wallet.fields.type'),
                value: record.type === 'bank' ? t('wallet.withdraw.bankNetwork') : record.network,
              },
              {
                label: t('wallet.fields.destination'),
                value: <span className="num">{record.destination}</span>,
              },
              {
                label: t('wallet.fields.amount'),
                value: <Amount value={record.amount} unit={record.coin} />,
              },
              { label: t('wallet.fields.fee'), value: <Amount value={record.fee} unit={record.coin} /> },
              {
                label: t('wallet.fields.arrival'),
                value: <Amount value={record.received} unit={record.coin} />,
                testId: 'withdrawal-received',
              },
              { label: t('wallet.fields.time'), value: formatTime(record.created_at) },
              { label: t('wallet.fields.reviewedAt'), value: formatTime(record.reviewed_at) },
              {
                label: t('wallet.fields.notified'),
                value: record.notified ? t('wallet.notified.yes') : t('wallet.notified.no'),
                testId: 'withdrawal-notified',
              },
              ...(record.reason ? [{ label: t('wallet.fields.reason'), value: record.reason }] : []),
            ]}
          />
        </>
      )}
    </Page>
  );
}
