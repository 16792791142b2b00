import '../components/wallet.css';
import type { BankCard } from '@bourse/shared/api';
import Button from 'antd-mobile/es/components/button';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PATHS } from '../../../shared/paths.ts';
import { IconCard, IconPlus, IconTrash } from '../../../shared/ui/icons.tsx';
import { ListSkeleton } from '../../../shared/ui/list-skeleton.tsx';
import { Page } from '../../../shared/ui/page.tsx';
import { EmptyState, ErrorState } from '../../../shared/ui/state-block.tsx';
import { showToast } from '../../../shared/ui/toast.ts';
import { useDeleteBankCard } from '../api/delete-bank-card.ts';
import { useBankCards } from '../api/get-bank-cards.ts';
import { ConfirmSheet } from '../components/confirm-sheet.tsx';

/** Bank cards: the saved cards (numbers masked), delete one, or add one. */
export default function BankCardListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const cards = useBankCards();
  const removal = useDeleteBankCard();
  const [doomed, setDoomed] = useState<BankCard | null>(null);

  function remove() {
    if (!doomed) return;
    removal.mutate(doomed.id, {
      onSuccess: (body) => {
        setDoomed(null);
        showToast(body.msg, 'success');
      },
      onError: () => setDoomed(null),
    });
  }

  let content: ReactNode;
  if (cards.isPending) content = <ListSkeleton rows={2} />;
  else if (cards.isError)
    content = <ErrorState message={cards.error.message} onRetry={() => cards.refetch()} />;
  else if (cards.data.length === 0) content = <EmptyState message={t('wallet.bankCards.empty')} />;
  else
    content = (
      <ul className="item-list" data-testid="bank-card-list">
        {cards.data.map((card) => (
          <li key={card.id} className="item-row" data-testid={`bank-card-row-${card.id}`}>
            <IconCard className="menu-icon" />
            <span className="item-row-main">
              <span className="item-row-title">{card.bank}</span>
              <span className="item-row-sub num">{card.number}</span>
              <span className="item-row-sub">
                {card.name} · {card.bank_code}
              </span>
            </span>
            <span className="wallet-row-actions">
              <button
                type="button"
                className="icon-button"
                aria-label={t('wallet.bankCards.delete', { bank: card.bank })}
                onClick={() => setDoomed(card)}
              >
                <IconTrash />
              </button>
            </span>
          </li>
        ))}
      </ul>
    );

  return (
    <Page title={t('wallet.bankCards.title')}>
      {content}
      <Button
        block
        size="large"
        color="primary"
        className="wallet-add"
        onClick={() => navigate(PATHS.addBankCard)}
        data-testid="bank-card-add"
      >
        <IconPlus /> {t('wallet.bankCards.add')}
      </Button>
      <ConfirmSheet
        isOpen={doomed !== null}
        title={t('wallet.bankCards.deleteTitle')}
        isBusy={removal.isPending}
        onClose={() => setDoomed(null)}
        onConfirm={remove}
        testId="bank-card-delete-confirm"
        rows={
          doomed
            ? [
                { label: t('wallet.bankCards.bank'), value: doomed.bank },
                { label: t('wallet.bankCards.number'), value: <span className="num">{doomed.number}</span> },
              ]
            : []
        }
      />
    </Page>
  );
}
