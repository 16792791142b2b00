import '../components/wallet.css';
import { useSchemaForm } from '@bourse/forms';
import { AddAddressBody } from '@bourse/shared/api';
import { useState } from 'react';
import { useController, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useFieldErrorText } from '../../../shared/form/field-error.ts';
import { FormTextField } from '../../../shared/form/form-fields.tsx';
import { NAVIGATE_DELAY_MS } from '../../../shared/timing.ts';
import { Page } from '../../../shared/ui/page.tsx';
import { SubmitButton } from '../../../shared/ui/submit-button.tsx';
import { showToast } from '../../../shared/ui/toast.ts';
import { useBack } from '../../../shared/ui/use-back.ts';
import { useAddAddress } from '../api/add-address.ts';
import { useCoinNetworks } from '../api/get-coin-networks.ts';
import { useWithdrawCoins } from '../api/get-withdraw-coins.ts';
import { OptionPicker } from '../components/option-picker.tsx';
import { useQueryParam } from '../components/use-query-param.ts';

const AddressForm = AddAddressBody.omit({ token: true });

/** `User/plusaddress`: save a withdrawal address (coin, network, address, remark); the server checks its format. */
export default function AddAddressPage() {
  const { t } = useTranslation();
  const goBack = useBack();
  const errorText = useFieldErrorText();
  const mutation = useAddAddress();
  const [isDone, setIsDone] = useState(false);
  const form = useSchemaForm(AddressForm, {
    defaultValues: {
      coin: useQueryParam('coin').toUpperCase(),
      network: useQueryParam('network').toUpperCase(),
      address: '',
      remark: '',
    },
  });
  const coinField = useController({ control: form.control, name: 'coin' });
  const networkField = useController({ control: form.control, name: 'network' });
  const coin = useWatch({ control: form.control, name: 'coin' }) ?? '';
  const coins = useWithdrawCoins();
  const networks = useCoinNetworks(coin);
  const networkOptions = (networks.data?.withdraw_networks ?? [])
    .filter((network) => network.type === 'address')
    .map((network) => ({ value: network.network, label: network.network }));
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
    <Page title={t('wallet.addresses.addTitle')}>
      <form onSubmit={onSubmit} noValidate>
        <OptionPicker
          label={t('wallet.fields.coin')}
          value={coinField.field.value ?? ''}
          options={(coins.data ?? []).map((each) => ({
            value: each.coin,
            label: each.coin,
            description: each.name,
          }))}
          onChange={(value) => {
            coinField.field.onChange(value);
            form.setValue('network', '');
          }}
          placeholder={t('wallet.fields.coinPlaceholder')}
          error={errorText(coinField.fieldState.error?.message)}
          testId="address-coin"
        />
        <OptionPicker
          label={t('wallet.fields.network')}
          value={networkField.field.value ?? ''}
          options={networkOptions}
          onChange={(value) => networkField.field.onChange(value)}
          placeholder={t('wallet.fields.networkPlaceholder')}
          error={errorText(networkField.fieldState.error?.message)}
          testId="address-network"
        />
        <FormTextField
          control={form.control}
          name="address"
          label={t('wallet.fields.address')}
          placeholder={t('wallet.addresses.addressPlaceholder')}
          autoComplete="off"
          spellCheck={false}
          maxLength={128}
          testId="address-input"
        />
        <FormTextField
          control={form.control}
          name="remark"
          label={t('wallet.addresses.remark')}
          placeholder={t('wallet.addresses.remarkPlaceholder')}
          maxLength={64}
          testId="address-remark"
        />
        <SubmitButton isBusy={isBusy} testId="address-submit" className="form-actions">
          {t('wallet.addresses.save')}
        </SubmitButton>
      </form>
    </Page>
  );
}
