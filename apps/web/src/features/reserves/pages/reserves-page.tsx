import '../components/reserves.css';
import { fromAtoms } from '@bourse/shared';
import type { SnapshotHeader } from '@bourse/shared/api';
import Button from 'antd-mobile/es/components/button';
import Skeleton from 'antd-mobile/es/components/skeleton';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatTime } from '../../../shared/format/format-time.ts';
import { Amount } from '../../../shared/ui/amount.tsx';
import { Page } from '../../../shared/ui/page.tsx';
import { EmptyState, ErrorState } from '../../../shared/ui/state-block.tsx';
import { failureReason, useSnapshots, useVerifyMyBalance, type Verification } from '../api/reserves.ts';

/** Totals are shown to 4 places (truncated); the proof's own lines keep all 8. */
const TOTAL_DECIMALS = 4;

/** The standalone verifier, which also works saved to disk and offline. */
const VERIFY_PAGE = '/por/verify.html';

function Totals({ snapshot }: { snapshot: SnapshotHeader }) {
  const { t } = useTranslation();
  const formatTime = useFormatTime('medium');
  const hasReserves = snapshot.reserves.length > 0;
  const isSimulated = snapshot.reserves.some((r) => r.simulated);
  return (
    <section className="reserves-card" data-testid="reserves-latest">
      <h2>{t('reserves.latest', { id: snapshot.snapshot_id })}</h2>
      <p className="reserves-meta">
        {t('reserves.takenAt', { time: formatTime(Date.parse(snapshot.taken_at)), seq: snapshot.ledger_seq })}
      </p>
      <table className="reserves-table is-totals">
        <thead>
          <tr>
            <th>{t('reserves.asset')}</th>
            <th>{t('reserves.liabilities')}</th>
            <th>{t('reserves.reserves')}</th>
            <th>{t('reserves.ratio')}</th>
          </tr>
        </thead>
        <tbody>
          {snapshot.assets.map((asset, i) => (
            <tr key={asset} data-testid={`reserves-row-${asset}`}>
              <td>{asset}</td>
              <td>
                <Amount value={fromAtoms(BigInt(snapshot.root_sums[i] ?? '0'))} decimals={TOTAL_DECIMALS} />
              </td>
              <td>
                {snapshot.reserve_totals[asset] ? (
                  <Amount
                    value={fromAtoms(BigInt(snapshot.reserve_totals[asset]))}
                    decimals={TOTAL_DECIMALS}
                  />
                ) : (
                  '—'
                )}
              </td>
              <td>{snapshot.ratios[asset] ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {Object.keys(snapshot.trial_total).length > 0 && (
        <p className="reserves-note" data-testid="reserves-trial">
          {t('reserves.trial', {
            amounts: Object.entries(snapshot.trial_total)
              .map(([asset, atoms]) => `${fromAtoms(BigInt(atoms))} ${asset}`)
              .join(', '),
          })}
        </p>
      )}
      <p className="reserves-note" data-testid="reserves-claim">
        {hasReserves
          ? isSimulated
            ? t('reserves.simulated')
            : t('reserves.verifiedReserves')
          : t('reserves.noReserves')}
      </p>
    </section>
  );
}

function Result({ result }: { result: Verification }) {
  const { t } = useTranslation();
  const allMatch = result.lines.every((line) => line.matches);
  return (
    <section className="reserves-card" data-testid="reserves-result">
      <ul className="reserves-checks">
        <li className="is-ok">✓ {t('reserves.checkSignature')}</li>
        {result.isChained && <li className="is-ok">✓ {t('reserves.checkChain')}</li>}
        <li className="is-ok">✓ {t('reserves.checkInclusion')}</li>
        <li className={allMatch ? 'is-ok' : 'is-bad'} data-testid="reserves-statement-check">
          {allMatch ? `✓ ${t('reserves.checkStatement')}` : `✗ ${t('reserves.statementDiffers')}`}
        </li>
      </ul>
      <table className="reserves-table">
        <thead>
          <tr>
            <th>{t('reserves.asset')}</th>
            <th>{t('reserves.inProof')}</th>
            <th>{t('reserves.inStatement')}</th>
          </tr>
        </thead>
        <tbody>
          {result.lines.map((line) => (
            <tr key={line.asset} data-testid={`verified-row-${line.asset}`}>
              <td>{line.asset}</td>
              <td>
                <Amount value={line.inProof} />
              </td>
              <td className={line.matches ? undefined : 'is-loss'}>
                <Amount value={line.inStatement} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/**
 * Proof of reserves: the latest snapshot's totals per asset (with reserves and ratios only when
 * verified reserve data exists), and "verify my balance": the caller's proof is downloaded and
 * verified here in the browser, and its balances set beside the statement at that ledger sequence.
 */
export default function ReservesPage() {
  const { t } = useTranslation();
  const snapshots = useSnapshots();
  const verify = useVerifyMyBalance();
  const [chosen, setChosen] = useState<number | undefined>(undefined);
  const list = snapshots.data?.list ?? [];
  const snapshot = list.find((h) => h.snapshot_id === chosen) ?? list[0];

  function download() {
    if (!verify.data) return;
    const blob = new Blob([JSON.stringify(verify.data.proof, null, 1)], { type: 'application/json' });
    const link = document.createElement('a');
    link.href = URL.createObjectURL(blob);
    link.download = `bourse-proof-${verify.data.proof.snapshot_id}.json`;
    link.click();
    URL.revokeObjectURL(link.href);
  }

  return (
    <Page title={t('reserves.title')}>
      <p className="reserves-intro">{t('reserves.intro')}</p>
      {snapshots.isPending ? (
        <div className="reserves-card">
          <Skeleton.Paragraph lineCount={5} animated />
        </div>
      ) : snapshots.isError ? (
        <ErrorState message={snapshots.error.message} onRetry={() => snapshots.refetch()} />
      ) : !snapshot ? (
        <EmptyState message={t('reserves.empty')} testId="reserves-empty" />
      ) : (
        <>
          <Totals snapshot={snapshot} />
          {list.length > 1 && (
            <div className="reserves-actions">
              <select
                aria-label={t('reserves.choose')}
                value={snapshot.snapshot_id}
                onChange={(event) => {
                  setChosen(Number(event.target.value));
                  verify.reset();
                }}
                data-testid="reserves-choose"
              >
                {list.map((h) => (
                  <option key={h.snapshot_id} value={h.snapshot_id}>
                    {t('reserves.latest', { id: h.snapshot_id })} · {h.taken_at.slice(0, 10)}
                  </option>
                ))}
              </select>
            </div>
          )}
          <div className="reserves-actions">
            <Button
              color="primary"
              loading={verify.isPending}
              onClick={() =>
                verify.mutate({
                  list,
                  publicKey: snapshots.data.public_key,
                  snapshotId: snapshot.snapshot_id,
                })
              }
              data-testid="reserves-verify"
            >
              {t('reserves.verify')}
            </Button>
            {verify.data && (
              <Button fill="outline" onClick={download} data-testid="reserves-download">
                {t('reserves.download')}
              </Button>
            )}
          </div>
          {verify.isError && (
            <section className="reserves-card" data-testid="reserves-failed">
              <ul className="reserves-checks">
                <li className="is-bad">
                  ✗ {t('reserves.failed')}
                  {failureReason(verify.error) ? ` (${failureReason(verify.error)})` : ''}:{' '}
                  {verify.error.message}
                </li>
              </ul>
            </section>
          )}
          {verify.data && <Result result={verify.data} />}
        </>
      )}
      {snapshots.data && (
        <footer className="reserves-footer" data-testid="reserves-fingerprint">
          {t('reserves.fingerprint', { fingerprint: snapshots.data.fingerprint })}
          <br />
          <a href={VERIFY_PAGE} target="_blank" rel="noopener">
            {t('reserves.standalone')}
          </a>
        </footer>
      )}
    </Page>
  );
}
