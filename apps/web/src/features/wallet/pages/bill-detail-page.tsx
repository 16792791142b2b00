import '../components/wallet.css';
import Skeleton from 'antd-mobile/es/components/skeleton';
import { useTranslation } from 'react-i18next';
import { useFormatTime } from '../../../shared/format/format-time.ts';
import { Amount } from '../../../shared/ui/amount.tsx';
import { Page } from '../../../shared/ui/page.tsx';
import { ErrorState } from '../../../shared/ui/state-block.tsx';
import { useBill } from '../api/get-bill.ts';
import { describeBillKind, describeBillType } from '../components/bill-type.ts';
import { DetailList } from '../components/detail-list.tsx';
import { useQueryParam } from '../components/use-query-param.ts';

/** One line of the statement: what moved, which balance, by how much, the balance after, when. */
export default function BillDetailPage() {
  const { t } = useTranslation();
  const formatTime = useFormatTime();
  const bill = useBill(useQueryParam('id'));
  const line = bill.data;

  return (
    <Page title={t('wallet.bills.detailTitle')}>
      {bill.isPending ? (
        <Skeleton.Paragraph lineCount={6} animated />
      ) : bill.isError || !line ? (
        <ErrorState message={bill.error?.message} onRetry={() => bill.refetch()} />
      ) : (
        <>
          <section className="detail-status">
            <Amount
              className={
                line.amount.startsWith('-')
                  ? 'detail-status-amount wallet-row-amount is-debit'
                  : 'detail-status-amount wallet-row-amount is-credit'
              }
              value={line.amount}
              unit={line.coin}
              isSigned
              testId="bill-amount"
            />
            <span>{describeBillType(t, line.type)}</span>
          </section>
          <DetailList
            rows={[
              { label: t('wallet.fields.type'), value: describeBillType(t, line.type), testId: 'bill-type' },
              { label: t('wallet.fields.coin'), value: line.coin },
              { label: t('wallet.bills.kind'), value: describeBillKind(t, line.kind) },
              {
                label: t('wallet.bills.balanceAfter'),
                value: <Amount value={line.balance_after} unit={line.coin} />,
              },
              { label: t('wallet.bills.reference'), value: <span className="num">{line.ref}</span> },
              ...(line.memo ? [{ label: t('wallet.bills.memo'), value: line.memo }] : []),
              { label: t('wallet.fields.time'), value: formatTime(line.created_at) },
            ]}
          />
        </>
      )}
    </Page>
  );
}
