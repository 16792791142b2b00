import type { OutboxItem } from '@bourse/shared/api';
import { useQuery } from '@tanstack/react-query';
import { Alert, Input, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../../shared/format.ts';
import { listOutbox } from '../api/list-outbox.ts';

const STATUS_COLORS = { kept: 'default', sent: 'success', failed: 'error' } as const;

/**
 * Mail Bourse wrote, newest first: the delivery itself when no SMTP server is configured (a user
 * can be read their code), and the record of what was sent otherwise. Every read is audited.
 */
export function OutboxPage() {
  const { t } = useTranslation();
  const [recipient, setRecipient] = useState('');
  const outbox = useQuery({
    queryKey: ['outbox', recipient],
    queryFn: () => listOutbox(recipient || undefined),
  });
  return (
    <>
      <Input.Search
        allowClear
        placeholder={t('outbox.search')}
        onSearch={(value) => setRecipient(value.trim().toLowerCase())}
        style={{ maxWidth: 360, marginBottom: 16 }}
        data-testid="outbox-search"
      />
      {outbox.error && <Alert type="warning" showIcon title={outbox.error.message} />}
      <Table<OutboxItem>
        size="middle"
        rowKey="id"
        loading={outbox.isLoading}
        dataSource={outbox.data?.list ?? []}
        pagination={false}
        expandable={{
          expandedRowRender: (row) => (
            <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', margin: 0 }}>
              {row.body}
            </Typography.Paragraph>
          ),
        }}
        columns={[
          { title: t('outbox.at'), render: (_, row) => formatTime(row.createdAt) },
          { title: t('outbox.to'), dataIndex: 'recipient' },
          { title: t('outbox.subject'), dataIndex: 'subject' },
          {
            title: t('outbox.status'),
            render: (_, row) => (
              <Tag color={STATUS_COLORS[row.status]} title={row.error || undefined}>
                {t(`outbox.statuses.${row.status}`)}
              </Tag>
            ),
          },
        ]}
      />
    </>
  );
}
