import '../components/wallet.css';
import { useSchemaForm } from '@bourse/forms';
import { AddBankBody } from '@bourse/shared/api';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormTextField } from '../../../shared/form/form-fields.tsx';
import { NAVIGATE_DELAY_MS } from '../../../shared/timing.ts';
import { Page } from '../../../shared/ui/page.tsx';
import { SubmitButton } from '../../../shared/ui/submit-button.tsx';
import { showToast } from '../../../shared/ui/toast.ts';
import { useBack } from '../../../shared/ui/use-back.ts';
import { useAddBankCard } from '../api/add-bank-card.ts';

const BankCardForm = AddBankBody.omit({ token: true });

/** Add a bank card: number, holder name, bank and bank code (opening bank), all required. */
export default function AddBankCardPage() {
  const { t } = useTranslation();
  const goBack = useBack();
  const mutation = useAddBankCard();
  const [isDone, setIsDone] = useState(false);
  const form = useSchemaForm(BankCardForm, {
    defaultValues: { number: '', name: '', bank: '', bank_code: '' },
  });
  const isBusy = mutation.isPending || isDone;

  const onSubmit = form.handleSubmit((values) => {
    if (isBusy) return;
    mutation.mutate(values, {
      onSuccess: (body) => {
        setIsDone(true);
        showToast(body.msg, 'success');
        setTimeout(goBack, NAVIGATE_DELAY_MS);
      },
    });
  });

  return (
    <Page title={t('wallet.bankCards.addTitle')}>
      <form onSubmit={onSubmit} noValidate>
        <FormTextField
          control={form.control}
          name="name"
          label={t('wallet.bankCards.name')}
          placeholder={t('wallet.bankCards.namePlaceholder')}
          autoComplete="cc-name"
          maxLength={64}
          testId="bank-name"
        />
        <FormTextField
          control={form.control}
          name="number"
          label={t('wallet.bankCards.number')}
          placeholder={t('wallet.bankCards.numberPlaceholder')}
          inputMode="numeric"
          autoComplete="off"
          maxLength={34}
          testId="bank-number"
        />
        <FormTextField
          control={form.control}
          name="bank"
          label={t('wallet.bankCards.bank')}
          placeholder={t('wallet.bankCards.bankPlaceholder')}
          maxLength={64}
          testId="bank-bank"
        />
        <FormTextField
          control={form.control}
          name="bank_code"
          label={t('wallet.bankCards.bankCode')}
          placeholder={t('wallet.bankCards.bankCodePlaceholder')}
          autoComplete="off"
          maxLength={64}
          testId="bank-code"
        />
        <SubmitButton isBusy={isBusy} testId="bank-submit" className="form-actions">
          {t('wallet.bankCards.save')}
        </SubmitButton>
      </form>
    </Page>
  );
}
