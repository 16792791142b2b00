import type { AdminContentClaims } from '@bourse/shared/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Input, Space, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchClaims } from '../api/fetch-claims.ts';
import { saveClaims } from '../api/save-claims.ts';

/** `25.20000000` → `25.2`: the held amount as staff read it (exact, without trailing zeros). */
function trimZeros(decimal: string): string {
  return decimal.includes('.') ? decimal.replace(/\.?0+$/, '') : decimal;
}

/**
 * Why customers see the reserve claim or not, as the server decided it: no published snapshot,
 * the latest one holding less BTC than claimed, or the snapshot and the BTC that back it.
 */
function reserveEvidenceText(claims: AdminContentClaims | undefined, t: TFunction): string {
  if (!claims?.reserveEvidence) return t('content.reserveUnbacked');
  const facts = { id: claims.reserveSnapshotId ?? 0, held: trimZeros(claims.reserveHeld ?? '0') };
  if (claims.reserveWithheld === 'not_covered') {
    return t('content.reserveNotCovered', { ...facts, claimed: claims.reserveBtc });
  }
  return t('content.reserveBacked', facts);
}

export function ClaimsCard({ canWrite }: { canWrite: boolean }) {
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
        type={claims.data?.reserveEvidence && claims.data.reserveWithheld === '' ? 'secondary' : 'warning'}
        style={{ marginTop: 8, marginBottom: 0 }}
        data-testid="claim-reserve-evidence"
      >
        {reserveEvidenceText(claims.data, t)}
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
