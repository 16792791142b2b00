import { type AdminProject, AdminProjectBody } from '@bourse/shared/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  DatePicker,
  Drawer,
  Input,
  InputNumber,
  Segmented,
  Space,
  Tabs,
  Typography,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { FormField, SchemaFormView, useSchemaForm } from '../../../shared/form.tsx';
import { trimDecimal } from '../../../shared/format.ts';
import { TEXT_LOCALES } from '../../../shared/locales.ts';
import { createProject } from '../api/create-project.ts';
import { editProject } from '../api/edit-project.ts';

const upperCase = (value: string) => value.toUpperCase();

/**
 * The project form: the request schema's fields as the drawer holds them (the sale window as
 * dates, a blank coin name or soft cap meaning the project's name and zero), turned into the
 * request and checked by AdminProjectBody, the schema the server uses.
 */
const ProjectFields = AdminProjectBody.omit({
  startAt: true,
  endAt: true,
  coinName: true,
  quote: true,
  softCap: true,
  descriptions: true,
})
  .extend({
    coinName: z.string(),
    quote: z.string(),
    softCap: z.string(),
    window: z.custom<[Dayjs, Dayjs] | null>(),
    descriptions: z.record(z.string(), z.string()),
  })
  .transform(
    ({ window, ...value }): z.input<typeof AdminProjectBody> => ({
      ...value,
      coinName: value.coinName || value.name,
      quote: value.quote.toUpperCase(),
      softCap: value.softCap || '0',
      startAt: window?.[0]?.valueOf() ?? 0,
      endAt: window?.[1]?.valueOf() ?? 0,
      descriptions: Object.fromEntries(Object.entries(value.descriptions).filter(([, text]) => text.trim())),
    }),
  )
  .pipe(AdminProjectBody);

/** A project as its drawer edits it (a draft to change has its id). */
export type Draft = z.input<typeof ProjectFields> & { id?: string };

export function toDraft(p?: AdminProject): Draft {
  if (!p)
    return {
      name: '',
      coin: '',
      coinName: '',
      coinDecimals: 4,
      quote: 'USDT',
      window: [dayjs().add(1, 'day').startOf('hour'), dayjs().add(8, 'day').startOf('hour')],
      totalIssue: '',
      price: '',
      lockDays: 30,
      perMin: '',
      perMax: '',
      individualLimit: '',
      maxPurchases: 1,
      softCap: '0',
      mode: 'pro_rata',
      referralBudgetBp: 500,
      descriptions: {},
    };
  return {
    id: p.id,
    name: p.name,
    coin: p.coin,
    coinName: p.name,
    coinDecimals: 4,
    quote: p.quote,
    window: [dayjs(p.start_at), dayjs(p.end_at)],
    totalIssue: trimDecimal(p.total_issue),
    price: trimDecimal(p.price),
    lockDays: p.lock_days,
    perMin: trimDecimal(p.per_min),
    perMax: trimDecimal(p.per_max),
    individualLimit: trimDecimal(p.individual_limit),
    maxPurchases: p.max_purchases,
    softCap: trimDecimal(p.soft_cap),
    mode: p.mode,
    referralBudgetBp: p.referral_budget_bp,
    descriptions: p.descriptions,
  };
}

export function ProjectDrawer({ draft, onClose }: { draft: Draft; onClose(): void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const { id, ...defaults } = draft;
  const form = useSchemaForm(ProjectFields, {
    defaultValues: {
      ...defaults,
      descriptions: Object.fromEntries(
        TEXT_LOCALES.map((locale) => [locale, defaults.descriptions[locale] ?? '']),
      ),
    },
  });
  const { control } = form;
  const save = useMutation({
    mutationFn: (values: z.output<typeof ProjectFields>) =>
      id ? editProject(id, values) : createProject(values),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['launchpad'] });
      message.success(t('launchpad.saved'));
      onClose();
    },
    onError: (error) => message.error(error.message),
  });
  const submit = form.handleSubmit((values) => save.mutate(values));
  const grid = { display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 12 } as const;
  return (
    <Drawer
      open
      width={760}
      title={id ? t('launchpad.editProject', { id }) : t('launchpad.newProject')}
      onClose={onClose}
      extra={
        <Button type="primary" loading={save.isPending} onClick={() => void submit()} data-testid="lp-save">
          {t('launchpad.saveDraft')}
        </Button>
      }
    >
      <SchemaFormView onSubmit={submit}>
        <Space orientation="vertical" style={{ width: '100%' }} size="middle">
          <Alert type="info" title={t('launchpad.draftNote')} />
          <div style={grid}>
            <FormField control={control} name="name" label={t('launchpad.name')}>
              <Input data-testid="lp-name" />
            </FormField>
            <FormField control={control} name="mode" label={t('launchpad.mode')}>
              <Segmented
                options={[
                  { value: 'pro_rata', label: t('launchpad.modes.pro_rata') },
                  { value: 'fcfs', label: t('launchpad.modes.fcfs') },
                ]}
              />
            </FormField>
            <FormField control={control} name="coin" label={t('launchpad.coin')} normalize={upperCase}>
              <Input disabled={Boolean(id)} data-testid="lp-coin" />
            </FormField>
            <FormField control={control} name="coinName" label={t('launchpad.coinName')} />
            <FormField control={control} name="quote" label={t('launchpad.quote')}>
              <Input disabled={Boolean(id)} />
            </FormField>
            <FormField control={control} name="window" label={t('launchpad.window')}>
              <DatePicker.RangePicker showTime />
            </FormField>
            <FormField control={control} name="totalIssue" label={t('launchpad.totalIssue')}>
              <Input data-testid="lp-supply" />
            </FormField>
            <FormField control={control} name="price" label={t('launchpad.price')}>
              <Input data-testid="lp-price" />
            </FormField>
            <FormField control={control} name="perMin" label={t('launchpad.perMin')} />
            <FormField control={control} name="perMax" label={t('launchpad.perMax')} />
            <FormField control={control} name="individualLimit" label={t('launchpad.individualLimit')} />
            <FormField control={control} name="softCap" label={t('launchpad.softCap')} />
            <FormField control={control} name="lockDays" label={t('launchpad.lockDays')}>
              <InputNumber min={0} max={3650} />
            </FormField>
            <FormField control={control} name="maxPurchases" label={t('launchpad.maxPurchases')}>
              <InputNumber min={1} max={1000} />
            </FormField>
            <FormField control={control} name="referralBudgetBp" label={t('launchpad.budget')}>
              <InputNumber min={0} max={10000} suffix="bp" />
            </FormField>
          </div>
          <Typography.Text strong>{t('launchpad.descriptions')}</Typography.Text>
          <Tabs
            items={TEXT_LOCALES.map((locale) => ({
              key: locale,
              label: locale,
              children: (
                <FormField control={control} name={`descriptions.${locale}`}>
                  <Input.TextArea rows={4} />
                </FormField>
              ),
            }))}
          />
        </Space>
      </SchemaFormView>
    </Drawer>
  );
}
