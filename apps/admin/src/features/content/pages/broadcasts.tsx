import type { BroadcastItem } from '@bourse/shared/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Input, Table, Tabs } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../../shared/format.ts';
import { TEXT_LOCALES } from '../../../shared/locales.ts';
import { listBroadcasts } from '../api/list-broadcasts.ts';
import { sendBroadcast } from '../api/send-broadcast.ts';

/**
 * Broadcast notices to every account: a title and body per locale (ja-JP, the fallback, is
 * required); each reader sees their language's text. Sending is audited.
 */
export function BroadcastsPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [texts, setTexts] = useState<Record<string, { title: string; body: string }>>({});
  const list = useQuery({
    queryKey: ['broadcasts'],
    queryFn: listBroadcasts,
  });
  const send = useMutation({
    mutationFn: () => {
      const filled = Object.fromEntries(
        Object.entries(texts).filter(([, v]) => v.title.trim() && v.body.trim()),
      );
      return sendBroadcast({ texts: filled });
    },
    onSuccess: () => {
      setTexts({});
      void client.invalidateQueries({ queryKey: ['broadcasts'] });
      message.success(t('broadcasts.sent'));
    },
    onError: (error) => message.error(error.message),
  });
  const set = (locale: string, field: 'title' | 'body', value: string) =>
    setTexts((current) => ({
      ...current,
      [locale]: { ...(current[locale] ?? { title: '', body: '' }), [field]: value },
    }));
  const hasJapanese = Boolean(texts['ja-JP']?.title.trim() && texts['ja-JP']?.body.trim());

  return (
    <>
      <Card size="small" title={t('broadcasts.new')} style={{ marginBottom: 16 }}>
        <Tabs
          items={TEXT_LOCALES.map((locale) => ({
            key: locale,
            label: locale === 'ja-JP' ? `${locale} *` : locale,
            children: (
              <>
                <Input
                  placeholder={t('broadcasts.title')}
                  value={texts[locale]?.title ?? ''}
                  maxLength={120}
                  onChange={(event) => set(locale, 'title', event.target.value)}
                  style={{ marginBottom: 8 }}
                  data-testid={`broadcast-title-${locale}`}
                />
                <Input.TextArea
                  placeholder={t('broadcasts.body')}
                  value={texts[locale]?.body ?? ''}
                  maxLength={4000}
                  rows={5}
                  onChange={(event) => set(locale, 'body', event.target.value)}
                  data-testid={`broadcast-body-${locale}`}
                />
              </>
            ),
          }))}
        />
        <Button
          type="primary"
          disabled={!hasJapanese}
          loading={send.isPending}
          onClick={() => send.mutate()}
          data-testid="broadcast-send"
        >
          {t('broadcasts.send')}
        </Button>
        {!hasJapanese && (
          <span style={{ marginLeft: 12, color: '#888' }}>{t('broadcasts.needJapanese')}</span>
        )}
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
