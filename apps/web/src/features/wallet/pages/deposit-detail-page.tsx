import '../components/wallet.css';
import Skeleton from 'antd-mobile/es/components/skeleton';
import { useTranslation } from 'react-i18next';
import { useFormatTime } from '../../../shared/format/format-time.ts';
import { Amount } from '../../../shared/ui/amount.tsx';
import { CopyButton } from '../../../shared/ui/copy-button.tsx';
import { Page } from '../../../shared/ui/page.tsx';
import { ErrorState } from '../../../shared/ui/state-block.tsx';
import { useDeposit } from '../api/get-deposit.ts';
import { DetailList, type DetailRow } from '../components/detail-list.tsx';
import { StatusTag } from '../components/status-tag.tsx';
import { useQueryParam } from '../components/use-query-param.ts';

/** `User/czinfo?id=…`: one deposit with its state, figures, address, hash and voucher. */
export default function DepositDetailPage() {
  const { t } = useTranslation();
  const formatTime = useFormatTime();
  const deposit = useDeposit(useQueryParam('id'));
  const record = deposit.data;

  const rows: DetailRow[] = record
    ? [
        { label: t('wallet.fields.coin'), value: record.coin },
        { label: t('wallet.fields.network'), value: record.network },
        {
          label: t('wallet.fields.address'),
          value: (
            <>
              <span className="num">{record.address}</span>
              <CopyButton text={record.address} label={t('wallet.deposit.copyAddress')} />
            </>
          ),
        },
        { label: t('wallet.fields.amount'), value: <Amount value={record.amount} unit={record.coin} /> },
        {
          label: t('wallet.fields.arrival'),
          value: <Amount value={record.credited_amount} unit={record.coin} />,
          testId: 'deposit-credited',
        },
        {
          label: t('wallet.fields.hash'),
          value: record.hash ? <span className="num">{record.hash}</span> : '—',
        },
        { label: t('wallet.fields.time'), value: formatTime(record.created_at) },
        { label: t('wallet.fields.reviewedAt'), value: formatTime(record.reviewed_at) },
        ...(record.reason ? [{ label: t('wallet.fields.reason'), value: record.reason }] : []),
      ]
    : [];

  return (
    <Page title={t('wallet.depositDetail.title')}>
      {deposit.isPending ? (
        <Skeleton.Paragraph lineCount={8} animated />
      ) : deposit.isError || !record ? (
        <ErrorState message={deposit.error?.message} onRetry={() => deposit.refetch()} />
      ) : (
        <>
          <section className="detail-status">
            <Amount className="detail-status-amount" value={record.amount} unit={record.coin} />
            <StatusTag status={record.status} testId="deposit-status" />
          </section>
          <DetailList rows={rows} />
          {record.voucher && (
            <>
              <h2 className="wallet-section-title">{t('wallet.deposit.voucher')}</h2>
              <img className="detail-voucher" src={record.voucher} alt={t('wallet.deposit.voucher')} />
            </>
          )}
        </>
      )}
    </Page>
  );
}
