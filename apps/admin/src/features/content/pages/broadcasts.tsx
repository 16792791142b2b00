import { DEFAULT_LOCALE } from '@bourse/i18n';
import { BroadcastBody, type BroadcastItem } from '@bourse/shared/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Input, Table, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { FormField, SchemaFormView, useSchemaForm } from '../../../shared/form.tsx';
import { formatTime } from '../../../shared/format.ts';
import { TEXT_LOCALES } from '../../../shared/locales.ts';
import { listBroadcasts } from '../api/list-broadcasts.ts';
import { sendBroadcast } from '../api/send-broadcast.ts';

/**
 * The notice form: a title and body per locale as typed; only the locales with both are sent,
 * checked by the request schema the server uses (ja-JP required).
 */
const BroadcastFields = z
  .object({ texts: z.record(z.string(), z.object({ title: z.string(), body: z.string() })) })
  .transform(({ texts }) => ({
    texts: Object.fromEntries(Object.entries(texts).filter(([, v]) => v.title.trim() && v.body.trim())),
  }))
  .pipe(BroadcastBody);
const EMPTY = { texts: Object.fromEntries(TEXT_LOCALES.map((locale) => [locale, { title: '', body: '' }])) };

/**
 * Broadcast notices to every account: a title and body per locale (ja-JP, the fallback, is
 * required); each reader sees their language's text. Sending is audited.
 */
export function BroadcastsPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const form = useSchemaForm(BroadcastFields, { defaultValues: EMPTY });
  const { control } = form;
  const list = useQuery({
    queryKey: ['broadcasts'],
    queryFn: listBroadcasts,
  });
  const send = useMutation({
    mutationFn: (values: z.output<typeof BroadcastFields>) => sendBroadcast(values),
    onSuccess: () => {
      form.reset(EMPTY);
      void client.invalidateQueries({ queryKey: ['broadcasts'] });
      message.success(t('broadcasts.sent'));
    },
    onError: (error) => message.error(error.message),
  });
  const japanese = form.watch(`texts.${DEFAULT_LOCALE}`);
  const hasJapanese = Boolean(japanese?.title.trim() && japanese?.body.trim());
  const submit = form.handleSubmit((values) => send.mutate(values));

  return (
    <>
      <Card size="small" title={t('broadcasts.new')} style={{ marginBottom: 16 }}>
        <SchemaFormView onSubmit={submit}>
          <Tabs
            items={TEXT_LOCALES.map((locale) => ({
              key: locale,
              label: locale === 'ja-JP' ? `${locale} *` : locale,
              children: (
                <>
                  <FormField control={control} name={`texts.${locale}.title`}>
                    <Input
                      placeholder={t('broadcasts.title')}
                      maxLength={120}
                      data-testid={`broadcast-title-${locale}`}
                    />
                  </FormField>
                  <FormField control={control} name={`texts.${locale}.body`}>
                    <Input.TextArea
                      placeholder={t('broadcasts.body')}
                      maxLength={4000}
                      rows={5}
                      data-testid={`broadcast-body-${locale}`}
                    />
                  </FormField>
                </>
              ),
            }))}
          />
          <Button
            type="primary"
            disabled={!hasJapanese}
            loading={send.isPending}
            onClick={() => void submit()}
            data-testid="broadcast-send"
          >
            {t('broadcasts.send')}
          </Button>
          {!hasJapanese && (
            <span style={{ marginLeft: 12, color: '#888' }}>{t('broadcasts.needJapanese')}</span>
          )}
        </SchemaFormView>
      </Card>
      {list.error && <Alert type="warning" showIcon title={list.error.message} />}
      <Table<BroadcastItem>
        size="middle"
        rowKey="id"
        loading={list.isLoading}
        dataSource={list.data?.list ?? []}
        pagination={false}
        columns={[
          { title: '#', dataIndex: 'id' },
          { title: t('broadcasts.title'), dataIndex: 'title' },
          { title: t('broadcasts.locales'), render: (_, row) => row.locales.join(', ') },
          { title: t('broadcasts.by'), render: (_, row) => row.createdBy ?? '—' },
          { title: t('broadcasts.at'), render: (_, row) => formatTime(row.createdAt) },
        ]}
      />
    </>
  );
}
