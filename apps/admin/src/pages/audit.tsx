import { useQuery } from '@tanstack/react-query';
import { Button, DatePicker, Form, Input, Space, Table, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../api/client.ts';
import type { AuditRow } from '../api/types.ts';
import { formatJson, formatTime } from '../app/format.ts';

interface Filter {
  actor?: string;
  action?: string;
  target?: string;
  from?: number;
  to?: number;
  beforeId?: number;
}

/** The audit log, read only, filtered by actor, action, target and time. */
export function AuditPage() {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<Filter>({});
  const query = useQuery({
    queryKey: ['audit', filter],
    queryFn: () => api<AuditRow[]>('GET', '/audit', { ...filter, limit: 50 }),
  });
  const rows = query.data ?? [];
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Form
        layout="inline"
        onFinish={(values: { actor?: string; action?: string; target?: string; range?: [Dayjs, Dayjs] }) =>
          setFilter({
            actor: values.actor?.trim() || undefined,
            action: values.action?.trim() || undefined,
            target: values.target?.trim() || undefined,
            from: values.range?.[0]?.startOf('day').valueOf(),
            to: values.range?.[1]?.endOf('day').valueOf(),
          })
        }
      >
        <Form.Item name="actor" label={t('audit.actor')}>
          <Input placeholder="staff:1" allowClear />
        </Form.Item>
        <Form.Item name="action" label={t('audit.action')}>
          <Input placeholder="user.freeze" allowClear />
        </Form.Item>
        <Form.Item name="target" label={t('audit.target')}>
          <Input placeholder="user:12" allowClear />
        </Form.Item>
        <Form.Item name="range">
          <DatePicker.RangePicker placeholder={[t('audit.from'), t('audit.to')]} />
        </Form.Item>
        <Button type="primary" htmlType="submit">
          {t('audit.filter')}
        </Button>
      </Form>
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
        <Button onClick={() => setFilter({ ...filter, beforeId: rows[rows.length - 1]?.id })}>
          {t('audit.more')}
        </Button>
      )}
    </Space>
  );
}
