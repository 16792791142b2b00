import { AuditQuery, type AuditRow } from '@bourse/shared/api';
import { useQuery } from '@tanstack/react-query';
import { Button, DatePicker, Input, Space, Table, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { FormField, SchemaFormView, useSchemaForm } from '../../../shared/form.tsx';
import { formatJson, formatTime } from '../../../shared/format.ts';
import { listAudit } from '../api/list-audit.ts';

// why: the page picks whole days; the query carries their first and last millisecond.
const AuditFilterFields = AuditQuery.pick({ actor: true, action: true, target: true }).extend({
  range: z.custom<[Dayjs | null, Dayjs | null] | null>().optional(),
});

/** The audit log, read only, filtered by actor, action, target and time. */
export function AuditPage() {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<Omit<AuditQuery, 'token'>>({});
  const form = useSchemaForm(AuditFilterFields, {
    defaultValues: { actor: '', action: '', target: '', range: null },
  });
  const query = useQuery({
    queryKey: ['audit', filter],
    queryFn: () => listAudit({ ...filter, limit: 50 }),
  });
  const rows = query.data ?? [];
  const { control } = form;
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <SchemaFormView
        layout="inline"
        onSubmit={form.handleSubmit(({ actor, action, target, range }) =>
          setFilter({
            actor,
            action,
            target,
            from: range?.[0]?.startOf('day').valueOf(),
            to: range?.[1]?.endOf('day').valueOf(),
          }),
        )}
      >
        <FormField control={control} name="actor" label={t('audit.actor')}>
          <Input placeholder="staff:1" allowClear />
        </FormField>
        <FormField control={control} name="action" label={t('audit.action')}>
          <Input placeholder="user.freeze" allowClear />
        </FormField>
        <FormField control={control} name="target" label={t('audit.target')}>
          <Input placeholder="user:12" allowClear />
        </FormField>
        <FormField control={control} name="range">
          <DatePicker.RangePicker placeholder={[t('audit.from'), t('audit.to')]} />
        </FormField>
        <Button type="primary" htmlType="submit">
          {t('audit.filter')}
        </Button>
      </SchemaFormView>
      <Table<AuditRow>
        rowKey="id"
        loading={query.isLoading}
        dataSource={rows}
        pagination={false}
        columns={[
          { title: '#', dataIndex: 'id' },
          { title: t('audit.time'), render: (_, row) => formatTime(row.createdAt) },
          { title: t('audit.actor'), dataIndex: 'actor' },
          { title: t('audit.action'), dataIndex: 'action' },
          { title: t('audit.target'), dataIndex: 'target' },
          { title: t('audit.reason'), dataIndex: 'reason' },
          {
            title: t('audit.before'),
            render: (_, row) => <Typography.Text code>{formatJson(row.before)}</Typography.Text>,
          },
          {
            title: t('audit.after'),
            render: (_, row) => <Typography.Text code>{formatJson(row.after)}</Typography.Text>,
          },
          { title: t('audit.ip'), dataIndex: 'ip' },
        ]}
      />
      {rows.length === 50 && (
        <Button onClick={() => setFilter({ ...filter, beforeId: String(rows[rows.length - 1]?.id ?? '') })}>
          {t('audit.more')}
        </Button>
      )}
    </Space>
  );
}
