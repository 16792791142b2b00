import { DEFAULT_LOCALE } from '@bourse/i18n';
import { AdminContentBody, type AdminContentClaims, type AdminContentItem } from '@bourse/shared/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  DatePicker,
  Drawer,
  Input,
  Popconfirm,
  Segmented,
  Select,
  Space,
  Switch,
  Table,
  Tabs,
  Tag,
  Typography,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { useSession } from '../../../app/session.tsx';
import { FormField, SchemaFormView, useSchemaForm } from '../../../shared/form.tsx';
import { formatTime } from '../../../shared/format.ts';
import { TEXT_LOCALES } from '../../../shared/locales.ts';
import { deleteContent } from '../api/delete-content.ts';
import { fetchClaims } from '../api/fetch-claims.ts';
import { listContent } from '../api/list-content.ts';
import { saveClaims } from '../api/save-claims.ts';
import { saveContent } from '../api/save-content.ts';

const KINDS = ['announcement', 'help', 'page'] as const;
type Kind = (typeof KINDS)[number];

/**
 * The editor's form: the item as the drawer holds it (the publication time as a date, a text per
 * locale as typed), turned into the request (locales without a title dropped) and checked by
 * AdminContentBody, the schema the server uses.
 */
const ContentFields = z
  .object({
    kind: z.enum(KINDS),
    slug: z.string(),
    pinned: z.boolean(),
    status: z.enum(['draft', 'published']),
    publishAt: z.custom<Dayjs | null>(),
    texts: z.record(z.string(), z.object({ title: z.string(), body: z.string() })),
  })
  .transform(
    (d): z.input<typeof AdminContentBody> => ({
      kind: d.kind,
      slug: d.slug,
      pinned: d.pinned,
      status: d.status,
      publishAt: d.publishAt ? d.publishAt.valueOf() : 0,
      texts: Object.fromEntries(Object.entries(d.texts).filter(([, v]) => v.title.trim())),
    }),
  )
  .pipe(AdminContentBody);

/** An item as the editor opens it (one to change has its id). */
type Draft = z.input<typeof ContentFields> & { id?: number };

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

/** The drawer that writes an item: its kind and page, status, publication time and texts. */
function ContentEditor({ draft, onClose, onSaved }: { draft: Draft; onClose(): void; onSaved(): void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { id, ...defaults } = draft;
  const form = useSchemaForm(ContentFields, {
    defaultValues: {
      ...defaults,
      texts: Object.fromEntries(
        TEXT_LOCALES.map((locale) => [locale, defaults.texts[locale] ?? { title: '', body: '' }]),
      ),
    },
  });
  const { control } = form;
  const [kind, slug] = form.watch(['kind', 'slug']);
  const hasJapanese = Boolean(form.watch(`texts.${DEFAULT_LOCALE}.title`)?.trim());
  const save = useMutation({
    mutationFn: (values: z.output<typeof ContentFields>) => saveContent(id, values),
    onSuccess: () => {
      onSaved();
      message.success(t('content.saved'));
    },
    onError: (error) => message.error(error.message),
  });
  const submit = form.handleSubmit((values) => save.mutate(values));
  return (
    <Drawer
      open
      width={720}
      title={id ? t('content.editTitle', { id }) : t('content.new')}
      onClose={onClose}
      extra={
        <Button
          type="primary"
          disabled={!hasJapanese}
          loading={save.isPending}
          onClick={() => void submit()}
          data-testid="content-save"
        >
          {t('content.save')}
        </Button>
      }
    >
      <SchemaFormView onSubmit={submit}>
        <Space wrap style={{ marginBottom: 12 }}>
          <Select<Kind>
            value={kind}
            disabled={id !== undefined}
            onChange={(value) => {
              // why: only pages have a slug; a page starts as "about us".
              form.setValue('kind', value);
              form.setValue('slug', value === 'page' ? 'aboutus' : '');
            }}
            options={KINDS.map((k) => ({ value: k, label: t(`content.kind.${k}`) }))}
            style={{ width: 160 }}
          />
          {kind === 'page' && (
            <FormField control={control} name="slug">
              <Select
                options={[
                  { value: 'aboutus', label: t('content.slug.aboutus') },
                  { value: 'msb', label: t('content.slug.msb') },
                  { value: 'terms', label: t('content.slug.terms') },
                  { value: 'privacy', label: t('content.slug.privacy') },
                  { value: 'whitepaper', label: t('content.slug.whitepaper') },
                ]}
                style={{ width: 200 }}
              />
            </FormField>
          )}
          <FormField control={control} name="status">
            <Select
              options={[
                { value: 'draft', label: t('content.draft') },
                { value: 'published', label: t('content.published') },
              ]}
              style={{ width: 140 }}
              data-testid="content-status"
            />
          </FormField>
          <FormField control={control} name="publishAt">
            <DatePicker showTime placeholder={t('content.publishNow')} />
          </FormField>
          {kind === 'announcement' && (
            <Space>
              <FormField control={control} name="pinned" valueProp="checked">
                <Switch data-testid="content-pinned" />
              </FormField>
              {t('content.pinned')}
            </Space>
          )}
        </Space>
        <Typography.Paragraph type="secondary">{t('content.htmlHelp')}</Typography.Paragraph>
        {kind === 'page' && slug === 'terms' && (
          <Typography.Paragraph type="warning" data-testid="content-terms-help">
            {t('content.termsHelp')}
          </Typography.Paragraph>
        )}
        <Tabs
          items={TEXT_LOCALES.map((locale) => ({
            key: locale,
            label: locale === DEFAULT_LOCALE ? `${locale} *` : locale,
            children: (
              <>
                <FormField control={control} name={`texts.${locale}.title`}>
                  <Input
                    placeholder={t('content.title')}
                    maxLength={200}
                    data-testid={`content-title-${locale}`}
                  />
                </FormField>
                <FormField control={control} name={`texts.${locale}.body`}>
                  <Input.TextArea
                    rows={14}
                    placeholder={t('content.body')}
                    data-testid={`content-body-${locale}`}
                  />
                </FormField>
              </>
            ),
          }))}
        />
        {!hasJapanese && <Typography.Text type="secondary">{t('content.needJapanese')}</Typography.Text>}
      </SchemaFormView>
    </Drawer>
  );
}

function ClaimsCard({ canWrite }: { canWrite: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [edit, setEdit] = useState<AdminContentClaims | null>(null);
  const claims = useQuery({
    queryKey: ['content-claims'],
    queryFn: fetchClaims,
  });
  const save = useMutation({
    mutationFn: (c: AdminContentClaims) => saveClaims(c.leverageMax, c.reserveBtc),
    onSuccess: () => {
      setEdit(null);
      void client.invalidateQueries({ queryKey: ['content-claims'] });
      message.success(t('content.saved'));
    },
    onError: (error) => message.error(error.message),
  });
  const shown = edit ?? claims.data;
  return (
    <Card size="small" title={t('content.claims')} style={{ marginBottom: 16 }}>
      <Space wrap align="center">
        <span>{t('content.leverage')}</span>
        <Input
          style={{ width: 100 }}
          value={shown?.leverageMax ?? ''}
          disabled={!canWrite}
          placeholder="5"
          onChange={(event) =>
            setEdit({ ...(shown ?? { leverageMax: '', reserveBtc: '' }), leverageMax: event.target.value })
          }
          data-testid="claim-leverage"
        />
        <span>{t('content.reserve')}</span>
        <Input
          style={{ width: 140 }}
          value={shown?.reserveBtc ?? ''}
          disabled={!canWrite}
          placeholder="20000"
          onChange={(event) =>
            setEdit({ ...(shown ?? { leverageMax: '', reserveBtc: '' }), reserveBtc: event.target.value })
          }
          data-testid="claim-reserve"
        />
        {canWrite && (
          <Button disabled={!edit} loading={save.isPending} onClick={() => edit && save.mutate(edit)}>
            {t('content.save')}
          </Button>
        )}
      </Space>
      <Typography.Paragraph
        type={claims.data?.reserveEvidence ? 'secondary' : 'warning'}
        style={{ marginTop: 8, marginBottom: 0 }}
      >
        {claims.data?.reserveEvidence ? t('content.reserveBacked') : t('content.reserveUnbacked')}
      </Typography.Paragraph>
      <Typography.Paragraph
        type={claims.data?.leverageOffered ? 'secondary' : 'warning'}
        style={{ marginTop: 4, marginBottom: 0 }}
        data-testid="claim-leverage-evidence"
      >
        {claims.data?.leverageOffered
          ? t('content.leverageBacked', { x: claims.data.leverageOffered })
          : t('content.leverageUnbacked')}
      </Typography.Paragraph>
    </Card>
  );
}
