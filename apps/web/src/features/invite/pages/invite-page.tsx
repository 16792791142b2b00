import '../components/invite.css';
import Button from 'antd-mobile/es/components/button';
import Skeleton from 'antd-mobile/es/components/skeleton';
import Tabs from 'antd-mobile/es/components/tabs';
import { QRCodeSVG } from 'qrcode.react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { copyText } from '../../../shared/copy-text.ts';
import { useFormatTime } from '../../../shared/format/format-time.ts';
import { PATHS } from '../../../shared/paths.ts';
import { Amount } from '../../../shared/ui/amount.tsx';
import { CopyButton } from '../../../shared/ui/copy-button.tsx';
import { ListSkeleton } from '../../../shared/ui/list-skeleton.tsx';
import { LoadMore } from '../../../shared/ui/load-more.tsx';
import { Page } from '../../../shared/ui/page.tsx';
import { EmptyState, ErrorState } from '../../../shared/ui/state-block.tsx';
import { showToast } from '../../../shared/ui/toast.ts';
import { useRewards } from '../api/rewards.ts';
import { useTeam } from '../api/team.ts';

const GENERATIONS = [1, 2, 3] as const;

/** The invitation link: the register page with the code, which the app keeps for sign-up (spec §3). */
function inviteLink(code: string): string {
  return `${window.location.origin}/?code=${encodeURIComponent(code)}#/register`;
}

function Members({ generation }: { generation: number }) {
  const { t } = useTranslation();
  const formatTime = useFormatTime();
  const team = useTeam(generation);
  if (team.isPending) return <ListSkeleton rows={3} />;
  if (team.isError) return <ErrorState message={team.error.message} onRetry={() => team.refetch()} />;
  const members = team.data.pages.flatMap((page) => page.members);
  if (members.length === 0)
    return <EmptyState message={t('invite.noMembers')} testId={`invite-empty-${generation}`} />;
  return (
    <div className="invite-members" data-testid={`invite-members-${generation}`}>
      {members.map((member, i) => (
        <div key={`${member.name}-${member.joined_at}-${i}`} className="invite-member">
          <span>{member.name}</span>
          <span className="invite-member-meta">
            {formatTime(member.joined_at)} · {member.verified ? t('invite.verified') : t('invite.unverified')}
          </span>
        </div>
      ))}
      <LoadMore query={team} />
    </div>
  );
}

/** The rewards the team's subscriptions earned: this month's total and each record with its status. */
function Rewards() {
  const { t } = useTranslation();
  const formatTime = useFormatTime();
  const rewards = useRewards();
  if (rewards.isPending) return <ListSkeleton rows={2} />;
  if (rewards.isError)
    return <ErrorState message={rewards.error.message} onRetry={() => rewards.refetch()} />;
  const list = rewards.data.pages.flatMap((page) => page.list);
  const monthTotal = rewards.data.pages[0]?.month_total ?? '0';
  return (
    <section className="invite-rewards" data-testid="invite-rewards">
      <div className="invite-rewards-head">
        <span>{t('invite.rewards.title')}</span>
        <span className="invite-member-meta">
          {t('invite.rewards.month')}{' '}
          <Amount value={monthTotal} decimals={2} unit="USDT" testId="invite-month-total" />
        </span>
      </div>
      {list.length === 0 ? (
        <p className="invite-note">{t('invite.rewards.none')}</p>
      ) : (
        list.map((reward) => (
          <div key={reward.id} className="invite-member" data-testid={`invite-reward-${reward.id}`}>
            <span>
              {reward.project} · {t(`invite.generations.${reward.generation}`)}
              <span className="invite-member-meta"> · {reward.buyer}</span>
            </span>
            <span className="invite-member-meta">
              <Amount value={reward.amount} decimals={2} unit={reward.asset} /> ·{' '}
              {t(`invite.rewards.status.${reward.status}`)} · {formatTime(reward.created_at)}
            </span>
          </div>
        ))
      )}
      <LoadMore query={rewards} />
      <p className="invite-note">{t('invite.rewards.note')}</p>
      <Link to={PATHS.agent} className="invite-agent-link" data-testid="invite-agent-link">
        {t('invite.rewards.agent')}
      </Link>
    </section>
  );
}

/**
 * `/Index/tgcode`: the user's invitation code, link and QR code (copy and share), and the team over
 * three generations with counts, masked names and join dates.
 */
export default function InvitePage() {
  const { t } = useTranslation();
  const [generation, setGeneration] = useState(1);
  const first = useTeam(1);
  const info = first.data?.pages[0];
  const link = info ? inviteLink(info.invite_code) : '';

  async function copyAndSay(text: string) {
    const isCopied = await copyText(text);
    showToast(t(isCopied ? 'common.copied' : 'common.copyFailed'), isCopied ? 'success' : 'fail');
  }

  async function share() {
    if (navigator.share) {
      try {
        await navigator.share({ title: t('invite.shareTitle'), text: t('invite.shareText'), url: link });
        return;
      } catch {
        // the user closed the sheet, or the browser refused: fall back to copying
      }
    }
    await copyAndSay(link);
  }

  return (
    <Page title={t('invite.title')}>
      {first.isPending ? (
        <div className="invite-card">
          <Skeleton.Paragraph lineCount={6} animated />
        </div>
      ) : first.isError ? (
        <ErrorState message={first.error.message} onRetry={() => first.refetch()} />
      ) : (
        info && (
          <>
            <section className="invite-card" aria-label={t('invite.code')}>
              <div className="invite-label">{t('invite.code')}</div>
              <div className="invite-code num" data-testid="invite-code">
                {info.invite_code}
              </div>
              <div className="invite-qr">
                <QRCodeSVG value={link} size={156} marginSize={0} title={t('invite.qrTitle')} />
              </div>
              <div className="invite-line">
                <span className="invite-value num" data-testid="invite-link">
                  {link}
                </span>
                <CopyButton text={link} label={t('invite.copyLink')} testId="invite-copy-link" />
              </div>
            </section>
            <div className="invite-actions">
              <Button
                onClick={() =>
                  void copyText(info.invite_code).then((ok) =>
                    showToast(t(ok ? 'common.copied' : 'common.copyFailed'), ok ? 'success' : 'fail'),
                  )
                }
                data-testid="invite-copy-code"
              >
                {t('invite.copyCode')}
              </Button>
              <Button color="primary" onClick={() => void share()} data-testid="invite-share">
                {t('invite.share')}
              </Button>
            </div>
            <Tabs activeKey={String(generation)} onChange={(key) => setGeneration(Number(key))}>
              {GENERATIONS.map((g) => (
                <Tabs.Tab
                  key={g}
                  title={
                    <span data-testid={`invite-tab-${g}`}>
                      {t(`invite.generations.${g}`)} ({info.counts[g - 1]})
                    </span>
                  }
                />
              ))}
            </Tabs>
            <Members generation={generation} />
            <p className="invite-note">{t('invite.note')}</p>
            <Rewards />
          </>
        )
      )}
    </Page>
  );
}
