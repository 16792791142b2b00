import { fromAtoms, toAtoms } from '@bourse/shared';
import type { DeliveryPage } from '@bourse/shared/api';
import { useTranslation } from 'react-i18next';
import { useFormatTime } from '../../../shared/format/format-time.ts';
import { Amount } from '../../../shared/ui/amount.tsx';

const RULE_KEYS = [
  'delivery.trial.ruleIdentity',
  'delivery.trial.ruleUse',
  'delivery.trial.ruleWin',
  'delivery.trial.ruleTurnover',
  'delivery.trial.ruleOneSource',
  'delivery.trial.ruleOpposite',
] as const;

/**
 * The user's trial money, the trial profit locked until real turnover releases it (and how much
 * turnover is still needed), each grant with what is left and until when, and the rules that bind
 * it (docs/trial-money.md).
 */
export function TrialCard({ page }: { page: DeliveryPage }) {
  const { t } = useTranslation();
  const formatTime = useFormatTime('medium');
  const active = page.trial_grants.filter((grant) => grant.status === 'active');
  const hasLockedProfit = toAtoms(page.balance.trial_profit) > 0n;
  return (
    <section className="trial-card" aria-labelledby="trial-title" data-testid="trial-card">
      <h2 className="section-title" id="trial-title">
        {t('delivery.trial.title')}
        <Amount value={page.balance.trial} unit="USDT" className="trial-balance" testId="trial-balance" />
      </h2>
      {hasLockedProfit && (
        <p className="trial-locked" data-testid="trial-locked">
          <span className="trial-grant-line">
            {t('delivery.trial.lockedProfit')}{' '}
            <Amount value={page.balance.trial_profit} unit="USDT" testId="trial-locked-profit" />
          </span>
          <span className="trial-grant-line">
            {t('delivery.trial.turnoverLeft')}{' '}
            <Amount value={page.trial_turnover_left} unit="USDT" testId="trial-turnover-left" />
          </span>
        </p>
      )}
      {page.trial_grants.length === 0 && (
        <p className="note note-info" data-testid="trial-no-grant">
          {t('delivery.trial.noGrant')}
        </p>
      )}
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
            {t(key, { multiple: page.trial_turnover_multiple })}
          </li>
        ))}
      </ul>
    </section>
  );
}
