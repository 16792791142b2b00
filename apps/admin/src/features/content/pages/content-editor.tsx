import { DEFAULT_LOCALE } from '@bourse/i18n';
import { AdminContentBody } from '@bourse/shared/api';
import { useMutation } from '@tanstack/react-query';
import { App, Button, DatePicker, Drawer, Input, Select, Space, Switch, Tabs, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { FormField, SchemaFormView, useSchemaForm } from '../../../shared/form.tsx';
import { TEXT_LOCALES } from '../../../shared/locales.ts';
import { saveContent } from '../api/save-content.ts';

export const KINDS = ['announcement', 'help', 'page'] as const;
export type Kind = (typeof KINDS)[number];

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
export type Draft = z.input<typeof ContentFields> & { id?: number };

/** The drawer that writes an item: its kind and page, status, publication time and texts. */
export function ContentEditor({
  draft,
  onClose,
  onSaved,
}: {
  draft: Draft;
  onClose(): void;
  onSaved(): void;
}) {
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
