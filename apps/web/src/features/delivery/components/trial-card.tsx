import { fromAtoms, toAtoms } from '@bourse/shared';
import type { DeliveryPage } from '@bourse/shared/api';
import { useTranslation } from 'react-i18next';
import { useFormatTime } from '../../../shared/format/format-time.ts';
import { Amount } from '../../../shared/ui/amount.tsx';

const RULE_KEYS = [
  'delivery.trial.ruleUse',
  'delivery.trial.ruleWin',
  'delivery.trial.ruleOneSource',
  'delivery.trial.ruleOpposite',
] as const;

/** The user's trial money, each grant with what is left and until when, and the rules that bind it. */
export function TrialCard({ page }: { page: DeliveryPage }) {
  const { t } = useTranslation();
  const formatTime = useFormatTime('medium');
  const active = page.trial_grants.filter((grant) => grant.status === 'active');
  return (
    <section className="trial-card" aria-labelledby="trial-title" data-testid="trial-card">
      <h2 className="section-title" id="trial-title">
        {t('delivery.trial.title')}
        <Amount value={page.balance.trial} unit="USDT" className="trial-balance" testId="trial-balance" />
      </h2>
      {active.length > 0 && (
        <ul className="trial-grants">
          {active.map((grant) => {
            const capLeft = toAtoms(grant.profit_cap) - toAtoms(grant.profit_paid);
            return (
              <li key={grant.id} className="trial-grant" data-testid={`trial-grant-${grant.id}`}>
                <span className="trial-grant-name">
                  {grant.signup ? t('delivery.trial.signupGrant') : grant.name}
                </span>
                <span className="trial-grant-line">
                  {t('delivery.trial.remaining')} <Amount value={grant.remaining} unit="USDT" />
                </span>
                <span className="trial-grant-line">
                  {t('delivery.trial.capLeft')}{' '}
                  <Amount value={fromAtoms(capLeft > 0n ? capLeft : 0n)} unit="USDT" />
                </span>
                <span className="trial-grant-line">
                  {t('delivery.trial.expires')} {formatTime(grant.expires_at)}
                </span>
              </li>
            );
          })}
        </ul>
      )}
      <ul className="trial-rules" data-testid="trial-rules">
        {RULE_KEYS.map((key) => (
          <li key={key} className="trial-rule">
            {t(key)}
          </li>
        ))}
      </ul>
    </section>
  );
}
