import type { UserInfo } from '@bourse/shared/api';
import { useTranslation } from 'react-i18next';
import { copyText } from '../../../shared/copy-text.ts';
import { IconCopy } from '../../../shared/ui/icons.tsx';
import { showToast } from '../../../shared/ui/toast.ts';

/**
 * Who is signed in: avatar initial, username, UID, level, credit score, who invited them (masked
 * by the server) and the referral code to share.
 */
export function ProfileHeader({ user }: { user: UserInfo }) {
  const { t } = useTranslation();
  const initial = (user.username || '?').slice(0, 1).toUpperCase();

  async function handleCopy() {
    const isCopied = await copyText(user.invite_code);
    showToast(t(isCopied ? 'common.copied' : 'common.copyFailed'), isCopied ? 'success' : 'fail');
  }

  return (
    <section className="profile" data-testid="profile">
      <div className="profile-main">
        <div className="profile-avatar" aria-hidden="true">
          {initial}
        </div>
        <div className="profile-identity">
          <p className="profile-name" data-testid="profile-username">
            {user.username}
          </p>
          <p className="profile-meta">
            <span className="num" data-testid="profile-uid">
              UID {user.id}
            </span>
            <span className="profile-level">{t('user.level', { level: user.level })}</span>
            <span className="num" data-testid="profile-credit">
              {t('user.credit', { value: user.credit })}
            </span>
          </p>
          <p className="profile-meta" data-testid="profile-referrer">
            {user.referrer ? t('user.referrer', { name: user.referrer }) : t('user.noReferrer')}
          </p>
        </div>
      </div>
      {user.invite_code && (
        <button
          type="button"
          className="profile-referral"
          onClick={handleCopy}
          data-testid="copy-invite-code"
        >
          <span className="profile-referral-label">{t('user.referralCode')}</span>
          <span className="profile-referral-code num">{user.invite_code}</span>
          <IconCopy className="profile-referral-icon" aria-label={t('common.copy')} />
        </button>
      )}
    </section>
  );
}

export function ProfileHeaderSkeleton() {
  return (
    <section className="profile" aria-busy="true">
      <div className="profile-main">
        <div className="profile-avatar is-placeholder" />
        <div className="profile-identity">
          <p className="placeholder-line" style={{ width: '50%' }} />
          <p className="placeholder-line" style={{ width: '70%' }} />
          <p className="placeholder-line" style={{ width: '40%' }} />
        </div>
      </div>
      {/* why: holds the referral row's place, so the menus below do not move when the user arrives. */}
      <div className="profile-referral" />
    </section>
  );
}
