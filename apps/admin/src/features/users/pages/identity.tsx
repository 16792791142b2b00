import { COUNTRY_CODES } from '@bourse/shared';
import type { IdentityPolicy, IdentityReview } from '@bourse/shared/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Descriptions,
  Drawer,
  Image,
  Input,
  Segmented,
  Select,
  Space,
  Switch,
  Table,
  Tag,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatTime } from '../../../shared/format.ts';
import { ReasonModal } from '../../../shared/reason-modal.tsx';
import { useSession } from '../../../shared/session.tsx';
import { approveIdentity } from '../api/approve-identity.ts';
import { fetchIdentityImage } from '../api/fetch-identity-image.ts';
import { fetchIdentityPolicy } from '../api/fetch-identity-policy.ts';
import { fetchIdentityReview } from '../api/fetch-identity-review.ts';
import { listIdentityReviews } from '../api/list-identity-reviews.ts';
import { rejectIdentity } from '../api/reject-identity.ts';
import { saveIdentityPolicy } from '../api/save-identity-policy.ts';

type Status = 'pending' | 'approved' | 'rejected';
const STATUS_COLORS: Record<Status, string> = {
  pending: 'processing',
  approved: 'success',
  rejected: 'error',
};

/** Countries and regions by name in the back office's language, as `Japan (JP)`. */
function useCountries() {
  const { i18n } = useTranslation();
  const locale = i18n.language;
  return useMemo(() => {
    const names = new Intl.DisplayNames([locale], { type: 'region' });
    const labelOf = (code: string) => `${names.of(code) ?? code} (${code})`;
    const options = COUNTRY_CODES.map((code) => ({ value: code, label: labelOf(code) }));
    options.sort((a, b) => a.label.localeCompare(b.label, locale));
    return { options, labelOf };
  }, [locale]);
}

/** One side of the document, read through the audited call only when the drawer shows it. */
function IdentityImage({ id, side }: { id: number; side: 'front' | 'back' }) {
  const { t } = useTranslation();
  const image = useQuery({
    queryKey: ['identity', id, 'image', side],
    queryFn: () => fetchIdentityImage(id, side),
    staleTime: Number.POSITIVE_INFINITY,
  });
  if (image.error) return <Alert type="warning" title={image.error.message} />;
  return (
    <Image
      src={image.data?.dataUrl}
      alt={t(`identity.${side}`)}
      width={300}
      height={200}
      style={{ objectFit: 'contain', background: '#f5f5f5' }}
      data-testid={`identity-image-${side}`}
    />
  );
}

/** Which actions need a verified identity: withdrawals above a value, and trading. */
function PolicyCard() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const session = useSession();
  const client = useQueryClient();
  const policy = useQuery({
    queryKey: ['identity-policy'],
    queryFn: fetchIdentityPolicy,
  });
  const [threshold, setThreshold] = useState('');
  useEffect(() => {
    if (policy.data) setThreshold(policy.data.withdrawAboveUsdt);
  }, [policy.data]);
  const save = useMutation({
    mutationFn: (input: IdentityPolicy) => saveIdentityPolicy(input),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['identity-policy'] });
      message.success(t('common.saved'));
    },
    onError: (error) => message.error(error.message),
  });
  const canEdit = session.can('identity.review');
  return (
    <Card size="small" title={t('identity.policy')} style={{ marginBottom: 16 }}>
      <Space wrap>
        <span>{t('identity.withdrawAbove')}</span>
        <Input
          style={{ width: 160 }}
          value={threshold}
          disabled={!canEdit}
          placeholder={t('identity.withdrawAboveHint')}
          onChange={(event) => setThreshold(event.target.value)}
          suffix="USDT"
          data-testid="identity-policy-threshold"
        />
        <span>{t('identity.trading')}</span>
        <Switch
          checked={policy.data?.trading ?? false}
          disabled={!canEdit}
          onChange={(trading) => save.mutate({ withdrawAboveUsdt: threshold, trading })}
        />
        <Button
          type="primary"
          disabled={!canEdit}
          loading={save.isPending}
          onClick={() =>
            save.mutate({ withdrawAboveUsdt: threshold, trading: policy.data?.trading ?? false })
          }
        >
          {t('common.submit')}
        </Button>
      </Space>
    </Card>
  );
}

/**
 * The compliance review queue: submissions under review oldest first (decided ones newest first);
 * a submission opens with its data and both images side by side (every view audited), approve or
 * reject with a reason the user sees.
 */
export function IdentityPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const session = useSession();
  const client = useQueryClient();
  const [status, setStatus] = useState<Status>('pending');
  const [openId, setOpenId] = useState<number | null>(null);
  const [isRejecting, setIsRejecting] = useState(false);
  const queue = useQuery({
    queryKey: ['identity', status],
    queryFn: () => listIdentityReviews(status),
  });
  const detail = useQuery({
    queryKey: ['identity', 'detail', openId],
    enabled: openId !== null,
    queryFn: () => fetchIdentityReview(openId ?? 0),
  });
  const countries = useCountries();
  // why: what the reviewer reads on the image, never prefilled: the number must match the one the
  // customer typed and the issuing country the one declared (the server checks both).
  const [confirmedIdno, setConfirmedIdno] = useState('');
  const [confirmedCountry, setConfirmedCountry] = useState<string | undefined>(undefined);
  const openReview = (id: number | null) => {
    setOpenId(id);
    setConfirmedIdno('');
    setConfirmedCountry(undefined);
  };
  const decide = useMutation({
    mutationFn: (
      input:
        | { id: number; approve: true; idno: string; country: string }
        | { id: number; approve: false; reason: string },
    ) =>
      input.approve
        ? approveIdentity(input.id, { idno: input.idno, country: input.country })
        : rejectIdentity(input.id, input.reason),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['identity'] });
      message.success(t('identity.done'));
      openReview(null);
    },
    onError: (error) => message.error(error.message),
  });
  const canReview = session.can('identity.review');
  const row = detail.data;

  const columns: ColumnsType<IdentityReview> = [
    { title: '#', render: (_, r) => r.id },
    {
      title: t('identity.user'),
      render: (_, r) => (
        <Link to={`/users/${r.userId}`}>
          {r.username} #{r.userId}
        </Link>
      ),
    },
    { title: t('identity.type'), render: (_, r) => t(`identity.types.${r.type}`, { defaultValue: r.type }) },
    { title: t('identity.country'), render: (_, r) => countries.labelOf(r.country) },
    {
      title: t('identity.status'),
      render: (_, r) => <Tag color={STATUS_COLORS[r.status]}>{t(`identity.statuses.${r.status}`)}</Tag>,
    },
    { title: t('identity.submitted'), render: (_, r) => formatTime(r.createdAt) },
    {
      title: '',
      render: (_, r) => (
        <Button size="small" onClick={() => openReview(r.id)} data-testid={`identity-open-${r.id}`}>
          {t('identity.open')}
        </Button>
      ),
    },
  ];

  return (
    <>
      <PolicyCard />
      <Segmented<Status>
        style={{ marginBottom: 16 }}
        value={status}
        onChange={setStatus}
        options={(['pending', 'approved', 'rejected'] as const).map((value) => ({
          value,
          label: t(`identity.statuses.${value}`),
        }))}
      />
      {queue.error && (
        <Alert type="warning" showIcon title={queue.error.message} style={{ marginBottom: 16 }} />
      )}
      <Table<IdentityReview>
        size="middle"
        rowKey="id"
        loading={queue.isLoading}
        dataSource={queue.data?.list ?? []}
        columns={columns}
        pagination={false}
        scroll={{ x: 'max-content' }}
      />
      <Drawer
        open={openId !== null}
        width={720}
        title={t('identity.review')}
        onClose={() => openReview(null)}
        extra={
          row?.status === 'pending' && canReview ? (
            <Button danger onClick={() => setIsRejecting(true)} data-testid="identity-reject">
              {t('identity.reject')}
            </Button>
          ) : undefined
        }
      >
        {detail.error && <Alert type="warning" title={detail.error.message} />}
        {row && (
          <>
            <Descriptions column={2} size="small" bordered style={{ marginBottom: 16 }}>
              <Descriptions.Item label={t('identity.user')}>
                {row.username} #{row.userId}
              </Descriptions.Item>
              <Descriptions.Item label={t('identity.type')}>
                {t(`identity.types.${row.type}`, { defaultValue: row.type })}
              </Descriptions.Item>
              <Descriptions.Item label={t('identity.realName')}>{row.realName}</Descriptions.Item>
              <Descriptions.Item label={t('identity.country')}>
                <span data-testid="identity-declared-country">{countries.labelOf(row.country)}</span>
              </Descriptions.Item>
              <Descriptions.Item label={t('identity.mobile')}>{row.mobile}</Descriptions.Item>
              <Descriptions.Item label={t('identity.status')}>
                <Tag color={STATUS_COLORS[row.status]}>{t(`identity.statuses.${row.status}`)}</Tag>
              </Descriptions.Item>
              {row.reason ? (
                <Descriptions.Item label={t('identity.reason')}>{row.reason}</Descriptions.Item>
              ) : null}
              {row.reviewedBy ? (
                <Descriptions.Item label={t('identity.reviewedBy')}>
                  {row.reviewedBy} · {row.reviewedAt ? formatTime(row.reviewedAt) : ''}
                </Descriptions.Item>
              ) : null}
            </Descriptions>
            {row.status === 'pending' && canReview ? (
              <Card size="small" title={t('identity.confirmTitle')} style={{ marginBottom: 16 }}>
                <Alert
                  type="info"
                  showIcon
                  style={{ marginBottom: 12 }}
                  title={t('identity.confirmHint', { country: countries.labelOf(row.country) })}
                />
                <Space wrap>
                  <Select
                    showSearch={{
                      filterOption: (input, option) =>
                        option !== undefined &&
                        (option.value.toLowerCase().startsWith(input.trim().toLowerCase()) ||
                          option.label.toLowerCase().includes(input.trim().toLowerCase())),
                    }}
                    style={{ width: 240 }}
                    options={countries.options}
                    value={confirmedCountry}
                    onChange={setConfirmedCountry}
                    placeholder={t('identity.countryConfirm')}
                    aria-label={t('identity.countryConfirm')}
                    data-testid="identity-country-confirm"
                  />
                  <Input
                    style={{ width: 240 }}
                    value={confirmedIdno}
                    onChange={(event) => setConfirmedIdno(event.target.value)}
                    placeholder={t('identity.idnoConfirm')}
                    aria-label={t('identity.idnoConfirm')}
                    data-testid="identity-idno-confirm"
                  />
                  <Button
                    type="primary"
                    loading={decide.isPending}
                    disabled={confirmedIdno.trim() === '' || confirmedCountry === undefined}
                    onClick={() => {
                      if (confirmedCountry === undefined) return;
                      decide.mutate({
                        id: row.id,
                        approve: true,
                        idno: confirmedIdno,
                        country: confirmedCountry,
                      });
                    }}
                    data-testid="identity-approve"
                  >
                    {t('identity.approve')}
                  </Button>
                </Space>
              </Card>
            ) : null}
            <Space align="start" wrap>
              <IdentityImage id={row.id} side="front" />
              <IdentityImage id={row.id} side="back" />
            </Space>
          </>
        )}
      </Drawer>
      <ReasonModal
        kind={isRejecting ? 'reason' : null}
        title={t('identity.reject')}
        onCancel={() => setIsRejecting(false)}
        onSubmit={async ({ reason }) => {
          if (!row) return;
          await decide.mutateAsync({ id: row.id, approve: false, reason: reason ?? '' });
          setIsRejecting(false);
        }}
      />
    </>
  );
}
