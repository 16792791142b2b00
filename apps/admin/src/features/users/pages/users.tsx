import type { UserSummary } from '@bourse/shared/api';
import { useQuery } from '@tanstack/react-query';
import { Input, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatTime } from '../../../shared/format.ts';
import { searchUsers } from '../api/search-users.ts';

export function UsersPage() {
  const { t } = useTranslation();
  const [q, setQ] = useState('');
  const query = useQuery({
    queryKey: ['users', q],
    queryFn: () => searchUsers(q),
  });
  return (
    <>
      <Input.Search
        placeholder={t('users.search')}
        aria-label={t('users.search')}
        allowClear
        enterButton
        style={{ maxWidth: 420, marginBottom: 16 }}
        onSearch={setQ}
      />
      <Table<UserSummary>
        rowKey="id"
        loading={query.isLoading}
        dataSource={query.data ?? []}
        columns={[
          { title: t('users.id'), dataIndex: 'id' },
          { title: t('users.username'), dataIndex: 'username' },
          { title: t('users.phone'), dataIndex: 'phone' },
          {
            title: t('users.status'),
            render: (_, user) => (
              <>
                <Tag color={user.status === 'frozen' ? 'red' : 'green'}>{t(`users.${user.status}`)}</Tag>
                {user.tradeBanned && <Tag color="orange">{t('users.tradeBanned')}</Tag>}
              </>
            ),
          },
          { title: t('users.createdAt'), render: (_, user) => formatTime(user.createdAt) },
          { title: t('users.lastLogin'), render: (_, user) => formatTime(user.lastLoginAt) },
          { title: '', render: (_, user) => <Link to={`/users/${user.id}`}>{t('users.open')}</Link> },
        ]}
      />
    </>
  );
}
