import type { ReferralConfigInfo } from '@bourse/shared/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Checkbox,
  Descriptions,
  Input,
  InputNumber,
  Segmented,
  Select,
  Space,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Field } from '../../../shared/field.tsx';
import { formatTime, trimDecimal } from '../../../shared/format.ts';
import { fetchReferralConfig } from '../api/fetch-referral-config.ts';
import { saveReferralConfig } from '../api/save-referral-config.ts';

export function ReferralTab({ canEdit }: { canEdit: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const config = useQuery({
    queryKey: ['launchpad', 'referral'],
    queryFn: fetchReferralConfig,
  });
  const [edit, setEdit] = useState<(ReferralConfigInfo & { acknowledge: boolean }) | null>(null);
  const save = useMutation({
    mutationFn: (c: ReferralConfigInfo & { acknowledge: boolean }) =>
      saveReferralConfig({
        ratesBp: c.ratesBp,
        generations: c.generations,
        capPerProject: trimDecimal(c.capPerProject),
        capPerMonth: trimDecimal(c.capPerMonth),
        budgetBp: c.budgetBp,
        blockedCountries: c.blockedCountries,
        acknowledge: c.acknowledge,
      }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['launchpad', 'referral'] });
      setEdit(null);
      message.success(t('launchpad.saved'));
    },
    onError: (error) => message.error(error.message),
  });
  const data = config.data;
  if (!data) return config.isError ? <Alert type="error" title={config.error.message} /> : null;
  const v = edit ?? { ...data, acknowledge: false };
  const set = <K extends keyof typeof v>(key: K, next: (typeof v)[K]) => setEdit({ ...v, [key]: next });
  const turningOn = v.generations === 3 && data.generations !== 3;
  return (
    <Space orientation="vertical" style={{ width: '100%', maxWidth: 760 }} size="middle">
      <Alert type="warning" showIcon title={t('launchpad.legalTitle')} description={t('launchpad.legal')} />
      <Descriptions size="small" column={2} bordered>
        <Descriptions.Item label={t('launchpad.acknowledgedBy')}>
          {data.acknowledgedBy ? `${data.acknowledgedBy} · ${formatTime(data.acknowledgedAt ?? 0)}` : '—'}
        </Descriptions.Item>
        <Descriptions.Item label={t('launchpad.generations')}>{data.generations}</Descriptions.Item>
      </Descriptions>
      <div style={{ display: 'grid', gridTemplateColumns: '1fr 1fr 1fr', gap: 12 }}>
        {[0, 1, 2].map((i) => (
          <Field key={i} label={t('launchpad.rate', { generation: i + 1 })}>
            <InputNumber
              disabled={!canEdit}
              min={0}
              max={1000}
              suffix="bp"
              value={v.ratesBp[i]}
              onChange={(n) => {
                const rates = [...v.ratesBp] as [number, number, number];
                rates[i] = n ?? 0;
                set('ratesBp', rates);
              }}
            />
          </Field>
        ))}
        <Field label={t('launchpad.generations')}>
          <Segmented
            disabled={!canEdit}
            value={v.generations}
            onChange={(g) => set('generations', Number(g))}
            options={[
              { value: 1, label: t('launchpad.oneGeneration') },
              { value: 3, label: t('launchpad.threeGenerations') },
            ]}
          />
        </Field>
        <Field label={t('launchpad.capPerProject')}>
          <Input
            disabled={!canEdit}
            value={trimDecimal(v.capPerProject)}
            onChange={(e) => set('capPerProject', e.target.value)}
          />
        </Field>
        <Field label={t('launchpad.capPerMonth')}>
          <Input
            disabled={!canEdit}
            value={trimDecimal(v.capPerMonth)}
            onChange={(e) => set('capPerMonth', e.target.value)}
          />
        </Field>
        <Field label={t('launchpad.budget')}>
          <InputNumber
            disabled={!canEdit}
            min={0}
            max={10000}
            suffix="bp"
            value={v.budgetBp}
            onChange={(n) => set('budgetBp', n ?? 0)}
          />
        </Field>
      </div>
      <Field label={t('launchpad.blockedCountries')}>
        <Select
          mode="tags"
          disabled={!canEdit}
          style={{ width: '100%' }}
          value={v.blockedCountries}
          onChange={(list: string[]) =>
            set(
              'blockedCountries',
              list.map((c) => c.toUpperCase().slice(0, 2)),
            )
          }
        />
      </Field>
      {turningOn && (
        <Checkbox
          checked={v.acknowledge}
          onChange={(e) => set('acknowledge', e.target.checked)}
          data-testid="lp-ack"
        >
          {t('launchpad.acknowledge')}
        </Checkbox>
      )}
      {canEdit ? (
        <Button
          type="primary"
          loading={save.isPending}
          disabled={!edit}
          onClick={() => edit && save.mutate(edit)}
        >
          {t('launchpad.saveConfig')}
        </Button>
      ) : (
        <Typography.Text type="secondary">{t('launchpad.ownerOnly')}</Typography.Text>
      )}
    </Space>
  );
}
