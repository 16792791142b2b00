import type { AdminProject } from '@bourse/shared/api';
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
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Field } from '../../../shared/field.tsx';
import { trimDecimal } from '../../../shared/format.ts';
import { TEXT_LOCALES } from '../../../shared/locales.ts';
import { createProject } from '../api/create-project.ts';
import { editProject } from '../api/edit-project.ts';

/** A project as its drawer edits it: the wire fields, with the sale window as dates. */
export interface Draft {
  id?: string;
  name: string;
  coin: string;
  coinName: string;
  coinDecimals: number;
  quote: string;
  window: [Dayjs, Dayjs] | null;
  totalIssue: string;
  price: string;
  lockDays: number;
  perMin: string;
  perMax: string;
  individualLimit: string;
  maxPurchases: number;
  softCap: string;
  mode: 'pro_rata' | 'fcfs';
  referralBudgetBp: number;
  descriptions: Record<string, string>;
}

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
  const [value, setValue] = useState(draft);
  const set = <K extends keyof Draft>(key: K, next: Draft[K]) => setValue((v) => ({ ...v, [key]: next }));
  const save = useMutation({
    mutationFn: () => {
      const values = {
        name: value.name,
        coin: value.coin.toUpperCase(),
        coinName: value.coinName || value.name,
        coinDecimals: value.coinDecimals,
        quote: value.quote.toUpperCase(),
        startAt: value.window?.[0].valueOf() ?? 0,
        endAt: value.window?.[1].valueOf() ?? 0,
        totalIssue: value.totalIssue,
        price: value.price,
        lockDays: value.lockDays,
        perMin: value.perMin,
        perMax: value.perMax,
        individualLimit: value.individualLimit,
        maxPurchases: value.maxPurchases,
        softCap: value.softCap || '0',
        mode: value.mode,
        referralBudgetBp: value.referralBudgetBp,
        descriptions: Object.fromEntries(
          Object.entries(value.descriptions).filter(([, text]) => text.trim()),
        ),
      };
      return value.id ? editProject(value.id, values) : createProject(values);
    },
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['launchpad'] });
      message.success(t('launchpad.saved'));
      onClose();
    },
    onError: (error) => message.error(error.message),
  });
  const grid = { display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 12 } as const;
  return (
    <Drawer
      open
      width={760}
      title={value.id ? t('launchpad.editProject', { id: value.id }) : t('launchpad.newProject')}
      onClose={onClose}
      extra={
        <Button type="primary" loading={save.isPending} onClick={() => save.mutate()} data-testid="lp-save">
          {t('launchpad.saveDraft')}
        </Button>
      }
    >
      <Space orientation="vertical" style={{ width: '100%' }} size="middle">
        <Alert type="info" title={t('launchpad.draftNote')} />
        <div style={grid}>
          <Field label={t('launchpad.name')}>
            <Input value={value.name} onChange={(e) => set('name', e.target.value)} data-testid="lp-name" />
          </Field>
          <Field label={t('launchpad.mode')}>
            <Segmented
              value={value.mode}
              onChange={(mode) => set('mode', mode as Draft['mode'])}
              options={[
                { value: 'pro_rata', label: t('launchpad.modes.pro_rata') },
                { value: 'fcfs', label: t('launchpad.modes.fcfs') },
              ]}
            />
          </Field>
          <Field label={t('launchpad.coin')}>
            <Input
              value={value.coin}
              disabled={Boolean(value.id)}
              onChange={(e) => set('coin', e.target.value.toUpperCase())}
              data-testid="lp-coin"
            />
          </Field>
          <Field label={t('launchpad.coinName')}>
            <Input value={value.coinName} onChange={(e) => set('coinName', e.target.value)} />
          </Field>
          <Field label={t('launchpad.quote')}>
            <Input
              value={value.quote}
              disabled={Boolean(value.id)}
              onChange={(e) => set('quote', e.target.value)}
            />
          </Field>
          <Field label={t('launchpad.window')}>
            <DatePicker.RangePicker
              showTime
              value={value.window}
              onChange={(range) => set('window', range?.[0] && range[1] ? [range[0], range[1]] : null)}
            />
          </Field>
          <Field label={t('launchpad.totalIssue')}>
            <Input
              value={value.totalIssue}
              onChange={(e) => set('totalIssue', e.target.value)}
              data-testid="lp-supply"
            />
          </Field>
          <Field label={t('launchpad.price')}>
            <Input
              value={value.price}
              onChange={(e) => set('price', e.target.value)}
              data-testid="lp-price"
            />
          </Field>
          <Field label={t('launchpad.perMin')}>
            <Input value={value.perMin} onChange={(e) => set('perMin', e.target.value)} />
          </Field>
          <Field label={t('launchpad.perMax')}>
            <Input value={value.perMax} onChange={(e) => set('perMax', e.target.value)} />
          </Field>
          <Field label={t('launchpad.individualLimit')}>
            <Input value={value.individualLimit} onChange={(e) => set('individualLimit', e.target.value)} />
          </Field>
          <Field label={t('launchpad.softCap')}>
            <Input value={value.softCap} onChange={(e) => set('softCap', e.target.value)} />
          </Field>
          <Field label={t('launchpad.lockDays')}>
            <InputNumber
              min={0}
              max={3650}
              value={value.lockDays}
              onChange={(n) => set('lockDays', n ?? 0)}
            />
          </Field>
          <Field label={t('launchpad.maxPurchases')}>
            <InputNumber
              min={1}
              max={1000}
              value={value.maxPurchases}
              onChange={(n) => set('maxPurchases', n ?? 1)}
            />
          </Field>
          <Field label={t('launchpad.budget')}>
            <InputNumber
              min={0}
              max={10000}
              value={value.referralBudgetBp}
              onChange={(n) => set('referralBudgetBp', n ?? 0)}
              suffix="bp"
            />
          </Field>
        </div>
        <Typography.Text strong>{t('launchpad.descriptions')}</Typography.Text>
        <Tabs
          items={TEXT_LOCALES.map((locale) => ({
            key: locale,
            label: locale,
            children: (
              <Input.TextArea
                rows={4}
                value={value.descriptions[locale] ?? ''}
                onChange={(e) => set('descriptions', { ...value.descriptions, [locale]: e.target.value })}
              />
            ),
          }))}
        />
      </Space>
    </Drawer>
  );
}
