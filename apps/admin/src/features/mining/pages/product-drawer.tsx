import { AdminMiningProductBody } from '@bourse/shared/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Drawer, Input, InputNumber, Segmented, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { FormField, SchemaFormView, useSchemaForm } from '../../../shared/form.tsx';
import { createProduct } from '../api/create-product.ts';
import { setProductStatus } from '../api/set-product-status.ts';

/** An optional amount left blank means its default ('0'), as the server reads an absent one. */
const blankAsZero = (value: unknown) => (value === '' ? '0' : value);

/** The new-machine form: the request schema, with blank optional amounts read as zero. */
const ProductFields = AdminMiningProductBody.extend({
  dailyQ: z.preprocess(blankAsZero, AdminMiningProductBody.shape.dailyQ),
  dailyValue: z.preprocess(blankAsZero, AdminMiningProductBody.shape.dailyValue),
  minHold: z.preprocess(blankAsZero, AdminMiningProductBody.shape.minHold),
});

const EMPTY = {
  name: '',
  type: 'sole',
  feeHashrate: '',
  feeElectricityDay: '',
  feeManagement: '',
  coin: 'BTC',
  incomeType: 'constant',
  dailyQ: '',
  dailyValue: '',
  days: 30,
  capacity: 10,
  minShareBp: 1000,
  stepBp: 500,
  holdCoin: 'USDT',
  minHold: '0',
  minReferrals: 0,
  maxOrders: 1,
  releaseDelayDays: 1,
} as const;

const upperCase = (value: string) => value.toUpperCase();

export function ProductDrawer({ onClose }: { onClose(): void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const form = useSchemaForm(ProductFields, { defaultValues: EMPTY });
  const { control } = form;
  const [type, incomeType, coin, minReferrals] = form.watch(['type', 'incomeType', 'coin', 'minReferrals']);
  const save = useMutation({
    mutationFn: async (values: z.output<typeof ProductFields>) => {
      const created = await createProduct(values);
      // why: capacity is fixed from here on; the machine goes on sale at once.
      await setProductStatus(created.id, 'normal');
    },
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['mining'] });
      message.success(t('mining.saved'));
      onClose();
    },
    onError: (error) => message.error(error.message),
  });
  const grid = { display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 12 } as const;
  const submit = form.handleSubmit((values) => save.mutate(values));
  return (
    <Drawer
      open
      width={720}
      title={t('mining.newProduct')}
      onClose={onClose}
      extra={
        <Button type="primary" loading={save.isPending} onClick={() => void submit()}>
          {t('mining.saveDraft')}
        </Button>
      }
    >
      <SchemaFormView onSubmit={submit}>
        <Space orientation="vertical" style={{ width: '100%' }} size="middle">
          {Number(minReferrals) > 0 && <Alert type="warning" showIcon title={t('mining.referralWarning')} />}
          <div style={grid}>
            <FormField control={control} name="name" label={t('mining.name')} />
            <FormField control={control} name="type" label={t('mining.type')}>
              <Segmented
                options={[
                  { value: 'sole', label: t('mining.types.sole') },
                  { value: 'shared', label: t('mining.types.shared') },
                ]}
              />
            </FormField>
            <FormField control={control} name="feeHashrate" label={t('mining.feeHashrate')}>
              <Input suffix="USDT" />
            </FormField>
            <FormField control={control} name="feeElectricityDay" label={t('mining.feeElectricityDay')}>
              <Input suffix="USDT" />
            </FormField>
            <FormField control={control} name="feeManagement" label={t('mining.feeManagement')}>
              <Input suffix="USDT" />
            </FormField>
            <FormField control={control} name="coin" label={t('mining.coin')} normalize={upperCase} />
            <FormField control={control} name="incomeType" label={t('mining.income')}>
              <Segmented
                options={[
                  { value: 'constant', label: t('mining.incomes.constant') },
                  { value: 'value', label: t('mining.incomes.value') },
                ]}
              />
            </FormField>
            {incomeType === 'constant' ? (
              <FormField control={control} name="dailyQ" label={t('mining.dailyQ')}>
                <Input suffix={coin} />
              </FormField>
            ) : (
              <FormField control={control} name="dailyValue" label={t('mining.dailyValue')}>
                <Input suffix="USDT" />
              </FormField>
            )}
            <FormField control={control} name="days" label={t('mining.days')}>
              <InputNumber min={1} max={3650} />
            </FormField>
            <FormField control={control} name="capacity" label={t('mining.capacity')}>
              <InputNumber min={1} />
            </FormField>
            {type === 'shared' && (
              <>
                <FormField control={control} name="minShareBp" label={t('mining.minShare')}>
                  <InputNumber min={1} max={10000} suffix="bp" />
                </FormField>
                <FormField control={control} name="stepBp" label={t('mining.step')}>
                  <InputNumber min={1} max={10000} suffix="bp" />
                </FormField>
              </>
            )}
            <FormField control={control} name="holdCoin" label={t('mining.holdCoin')} normalize={upperCase} />
            <FormField control={control} name="minHold" label={t('mining.minHold')} />
            <FormField control={control} name="minReferrals" label={t('mining.minReferrals')}>
              <InputNumber min={0} max={1000} />
            </FormField>
            <FormField control={control} name="maxOrders" label={t('mining.maxOrders')}>
              <InputNumber min={1} max={1000} />
            </FormField>
            <FormField control={control} name="releaseDelayDays" label={t('mining.releaseDelay')}>
              <InputNumber min={0} max={365} />
            </FormField>
          </div>
        </Space>
      </SchemaFormView>
    </Drawer>
  );
}
