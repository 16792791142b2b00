import { Tabs, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../../shared/session.tsx';
import { AgentsTab } from './agents.tsx';
import { ProjectsTab } from './projects.tsx';
import { ReferralTab } from './referral.tsx';
import { RewardsTab } from './rewards.tsx';

/**
 * The launchpad: projects (drafts, the issuer's tokens into inventory, publication, forbid,
 * cancel with refunds), their records, referral rewards (void a pending one with a reason), the
 * referral programme (owner; generations 2–3 behind the legal warning) and agents. Progress, sold
 * amounts and allocations are the records' sums: nothing here sets them. The server audits all.
 */
export function LaunchpadPage() {
  const { t } = useTranslation();
  const session = useSession();
  return (
    <>
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {t('launchpad.title')}
      </Typography.Title>
      <Tabs
        destroyOnHidden
        items={[
          {
            key: 'projects',
            label: t('launchpad.tabs.projects'),
            children: <ProjectsTab canManage={session.can('launchpad.manage')} />,
          },
          {
            key: 'rewards',
            label: t('launchpad.tabs.rewards'),
            children: <RewardsTab canManage={session.can('launchpad.manage')} />,
          },
          {
            key: 'referral',
            label: t('launchpad.tabs.referral'),
            children: <ReferralTab canEdit={session.can('launchpad.referral')} />,
          },
          {
            key: 'agents',
            label: t('launchpad.tabs.agents'),
            children: <AgentsTab canReview={session.can('agents.review')} />,
          },
        ]}
      />
    </>
  );
}
