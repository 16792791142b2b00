import { TrialSettingsBody } from '@bourse/shared/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Descriptions, Input, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { FormField, SchemaFormView, useSchemaForm } from '../../../shared/form.tsx';
import { fetchTrialSettings } from '../api/fetch-trial-settings.ts';
import { saveTrialSettings } from '../api/save-trial-settings.ts';

const SETTINGS_KEY = ['delivery', 'trial-settings'];

/**
 * The trial rules' turnover multiple (docs/trial-money.md): the one set, the least the payout
 * ratios allow (2 / (1 − the highest ratio)), the one in force, and a form to change it. The
 * server refuses a multiple below the least one and says why; the message is shown as it comes.
 */
export function TrialSettingsCard({ canManage }: { canManage: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const settings = useQuery({
    queryKey: SETTINGS_KEY,
    queryFn: fetchTrialSettings,
  });
  const form = useSchemaForm(TrialSettingsBody, { defaultValues: { turnoverMultiple: '' } });
  const save = useMutation({
    mutationFn: (values: z.output<typeof TrialSettingsBody>) => saveTrialSettings(values),
    onSuccess: (data) => {
      client.setQueryData(SETTINGS_KEY, data);
      message.success(t('common.saved'));
      form.reset({ turnoverMultiple: '' });
    },
    onError: (error) => message.error({ content: error.message, duration: 10 }),
  });
  const data = settings.data;
  return (
    <Card title={t('delivery.trialRules')}>
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Alert type="info" title={t('delivery.trialRulesNote')} />
        {settings.isError && <Alert type="error" title={settings.error.message} />}
        {data && (
          <Descriptions size="small" column={2} bordered>
            <Descriptions.Item label={t('delivery.turnoverMultiple')}>
              {data.turnoverMultiple}×
            </Descriptions.Item>
            <Descriptions.Item label={t('delivery.effectiveTurnoverMultiple')}>
              {data.effectiveTurnoverMultiple}×
            </Descriptions.Item>
            <Descriptions.Item label={t('delivery.maxRatio')}>{data.maxRatio}</Descriptions.Item>
            <Descriptions.Item label={t('delivery.minTurnoverMultiple')}>
              {data.minTurnoverMultiple === null ? '∞' : `${data.minTurnoverMultiple}×`}
            </Descriptions.Item>
          </Descriptions>
        )}
        {canManage && (
          <SchemaFormView layout="inline" onSubmit={form.handleSubmit((values) => save.mutate(values))}>
            <FormField
              control={form.control}
              name="turnoverMultiple"
              label={t('delivery.newTurnoverMultiple')}
              invalidText={t('delivery.turnoverMultipleInvalid')}
            >
              <Input inputMode="decimal" style={{ width: 120 }} data-testid="trial-multiple" />
            </FormField>
            <Button htmlType="submit" type="primary" loading={save.isPending}>
              {t('delivery.save')}
            </Button>
          </SchemaFormView>
        )}
      </Space>
    </Card>
  );
}
