import type { IssueProject } from '@bourse/shared/api';
import { useTranslation } from 'react-i18next';
import { formatCountdown, secondsLeft } from '../../../shared/format/countdown.ts';
import { useFormatPercent } from '../../../shared/format/format-percent.ts';
import { useServerNow } from '../../../shared/server-clock.ts';

/** A project's state as a coloured tag: not started, open, allocating, closed, cancelled, forbidden. */
export function StateTag({ state, testId }: { state: IssueProject['state']; testId?: string }) {
  const { t } = useTranslation();
  return (
    <span className={`lp-tag is-${state}`} data-testid={testId} data-state={state}>
      {t(`launchpad.state.${state}`)}
    </span>
  );
}

/** "Starts in" / "Ends in" with a live countdown on the server's clock, or nothing once it has ended. */
export function Countdown({ project }: { project: IssueProject }) {
  const { t } = useTranslation();
  const now = useServerNow();
  const target =
    project.state === 'not_started'
      ? project.start_at
      : project.state === 'open'
        ? project.end_at
        : undefined;
  if (target === undefined) return null;
  const left = formatCountdown(secondsLeft(target, now), (days) => t('launchpad.days', { value: days }));
  return (
    <span className="lp-countdown" data-testid={`countdown-${project.id}`}>
      {t(project.state === 'not_started' ? 'launchpad.startsIn' : 'launchpad.endsIn')}{' '}
      <span className="num">{left}</span>
    </span>
  );
}

/** Progress as a bar (capped at 100 %, pro-rata demand may pass it) and the percentage. */
export function Progress({ project }: { project: IssueProject }) {
  const { t } = useTranslation();
  const formatPercent = useFormatPercent();
  const width = Math.min(100, Number(project.progress));
  return (
    <div className="lp-progress" data-testid={`progress-${project.id}`}>
      <div className="lp-progress-bar" aria-hidden="true">
        <span style={{ width: `${width}%` }} />
      </div>
      <span className="lp-progress-text">
        {t('launchpad.progress')} <span className="num">{formatPercent.percent(project.progress)}</span>
      </span>
    </div>
  );
}
