import '../components/launchpad.css';
import type { IssueProject } from '@bourse/shared/api';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useFormatTime } from '../../../shared/format/format-time.ts';
import { PATHS } from '../../../shared/paths.ts';
import { Amount } from '../../../shared/ui/amount.tsx';
import { ListSkeleton } from '../../../shared/ui/list-skeleton.tsx';
import { Page } from '../../../shared/ui/page.tsx';
import { EmptyState, ErrorState } from '../../../shared/ui/state-block.tsx';
import { useProjects } from '../api/launchpad.ts';
import { Countdown, Progress, StateTag } from '../components/labels.tsx';

function ProjectCard({ project }: { project: IssueProject }) {
  const { t } = useTranslation();
  const formatTime = useFormatTime();
  return (
    <Link
      to={`${PATHS.issueDetail}?id=${project.id}`}
      className="lp-card"
      data-testid={`project-${project.coin}`}
    >
      <div className="lp-card-head">
        <div className="lp-card-title">
          <span className="lp-coin" aria-hidden="true">
            {project.coin.slice(0, 4)}
          </span>
          <div>
            <div className="lp-name">{project.name}</div>
            <div className="lp-sub">
              {project.coin} · {t(`launchpad.mode.${project.mode}`)}
            </div>
          </div>
        </div>
        <StateTag state={project.state} testId={`state-${project.coin}`} />
      </div>
      <dl className="lp-facts">
        <div>
          <dt>{t('launchpad.price')}</dt>
          <dd>
            <Amount value={project.price} unit={project.quote} />
          </dd>
        </div>
        <div>
          <dt>{t('launchpad.totalIssue')}</dt>
          <dd>
            <Amount value={project.total_issue} decimals={0} unit={project.coin} />
          </dd>
        </div>
        <div>
          <dt>{t('launchpad.lock')}</dt>
          <dd>{t('launchpad.lockDays', { value: project.lock_days })}</dd>
        </div>
        <div>
          <dt>{t('launchpad.endAt')}</dt>
          <dd className="num">{formatTime(project.end_at)}</dd>
        </div>
      </dl>
      <Progress project={project} />
      <Countdown project={project} />
    </Link>
  );
}

/**
 * `/Issue/index` (white, spec §2): the subscription projects, live and upcoming first, with their
 * countdowns and progress (the sum of the records over the total issue).
 */
export default function ProjectListPage() {
  const { t } = useTranslation();
  const projects = useProjects();
  const order: Record<IssueProject['state'], number> = {
    open: 0,
    not_started: 1,
    allocating: 2,
    forbidden: 3,
    closed: 4,
    cancelled: 5,
  };
  const list = [...(projects.data?.list ?? [])].sort((a, b) => order[a.state] - order[b.state]);
  return (
    <Page
      title={t('launchpad.title')}
      right={
        <Link to={PATHS.issueLog} className="lp-link" data-testid="issue-log-link">
          {t('launchpad.records')}
        </Link>
      }
    >
      {projects.isPending ? (
        <ListSkeleton rows={3} />
      ) : projects.isError ? (
        <ErrorState message={projects.error.message} onRetry={() => projects.refetch()} />
      ) : list.length === 0 ? (
        <EmptyState message={t('launchpad.empty')} />
      ) : (
        <div className="lp-list" data-testid="project-list">
          {list.map((project) => (
            <ProjectCard key={project.id} project={project} />
          ))}
        </div>
      )}
    </Page>
  );
}
