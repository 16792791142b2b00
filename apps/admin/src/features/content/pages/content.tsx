import type { AdminContentItem } from '@bourse/shared/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Popconfirm, Segmented, Space, Table, Tag } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../../shared/format.ts';
import { useSession } from '../../../shared/session.tsx';
import { deleteContent } from '../api/delete-content.ts';
import { listContent } from '../api/list-content.ts';
import { ClaimsCard } from './claims.tsx';
import { ContentEditor, type Draft, KINDS, type Kind } from './content-editor.tsx';
import { MsbCertificateCard } from './msb-certificate.tsx';

const empty = (kind: Kind): Draft => ({
  kind,
  slug: kind === 'page' ? 'aboutus' : '',
  pinned: false,
  status: 'draft',
  publishAt: null,
  texts: {},
});

/**
 * Announcements, help articles and the operator's pages (about us, MSB), each written per locale
 * with ja-JP required as the fallback; bodies are HTML that the server sanitises. Also the
 * marketing claims, the reserve one shown to customers only while proof of reserves backs it.
 */
export function ContentPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const session = useSession();
  const client = useQueryClient();
  const canWrite = session.can('content.manage');
  const [kind, setKind] = useState<Kind>('announcement');
  const [draft, setDraft] = useState<Draft | null>(null);
  const list = useQuery({
    queryKey: ['content', kind],
    queryFn: () => listContent(kind),
  });
  const refresh = () => void client.invalidateQueries({ queryKey: ['content'] });
  const remove = useMutation({
    mutationFn: (id: number) => deleteContent(id),
    onSuccess: () => {
      refresh();
      message.success(t('content.deleted'));
    },
    onError: (error) => message.error(error.message),
  });

  return (
    <>
      <ClaimsCard canWrite={canWrite} />
      <MsbCertificateCard canWrite={canWrite} />
      <Space style={{ marginBottom: 12 }} wrap>
        <Segmented<Kind>
          value={kind}
          onChange={setKind}
          options={KINDS.map((k) => ({ value: k, label: t(`content.kind.${k}`) }))}
          data-testid="content-kind"
        />
        {canWrite && (
          <Button type="primary" onClick={() => setDraft(empty(kind))} data-testid="content-new">
            {t('content.new')}
          </Button>
        )}
      </Space>
      {list.error && <Alert type="warning" showIcon title={list.error.message} />}
      <Table<AdminContentItem>
        size="middle"
        rowKey="id"
        loading={list.isLoading}
        dataSource={list.data?.list ?? []}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        locale={{ emptyText: t('content.empty') }}
        columns={[
          { title: '#', dataIndex: 'id', width: 64 },
          {
            title: t('content.title'),
            render: (_, row) => (
              <Space>
                {row.pinned && <Tag color="gold">{t('content.pinned')}</Tag>}
                {row.slug && <Tag>{row.slug}</Tag>}
                {row.termsVersion > 0 && (
                  <Tag color="blue">{t('content.termsVersion', { version: row.termsVersion })}</Tag>
                )}
                <span>{row.texts['ja-JP']?.title ?? Object.values(row.texts)[0]?.title}</span>
              </Space>
            ),
          },
          {
            title: t('content.status'),
            render: (_, row) =>
              row.status === 'draft' ? (
                <Tag>{t('content.draft')}</Tag>
              ) : row.publishAt > Date.now() ? (
                <Tag color="blue">{t('content.scheduled')}</Tag>
              ) : (
                <Tag color="green">{t('content.published')}</Tag>
              ),
          },
          { title: t('content.publishAt'), render: (_, row) => formatTime(row.publishAt) },
          { title: t('content.locales'), render: (_, row) => Object.keys(row.texts).length },
          { title: t('content.author'), render: (_, row) => row.author ?? t('content.platform') },
          {
            title: '',
            render: (_, row) =>
              canWrite && (
                <Space>
                  <Button
                    size="small"
                    onClick={() =>
                      setDraft({
                        id: row.id,
                        kind: row.kind,
                        slug: row.slug,
                        pinned: row.pinned,
                        status: row.status,
                        publishAt: dayjs(row.publishAt),
                        texts: row.texts,
                      })
                    }
                    data-testid={`content-edit-${row.id}`}
                  >
                    {t('content.edit')}
                  </Button>
                  <Popconfirm title={t('content.confirmDelete')} onConfirm={() => remove.mutate(row.id)}>
                    <Button size="small" danger>
                      {t('content.delete')}
                    </Button>
                  </Popconfirm>
                </Space>
              ),
          },
        ]}
      />
      {draft && (
        <ContentEditor
          draft={draft}
          onClose={() => setDraft(null)}
          onSaved={() => {
            setDraft(null);
            refresh();
          }}
        />
      )}
    </>
  );
}
