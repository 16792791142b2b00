import type { QueryClient } from '@tanstack/react-query';
import '../components/user.css';
import Skeleton from 'antd-mobile/es/components/skeleton';
import Tabs from 'antd-mobile/es/components/tabs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { userInfoQueryOptions, useUserInfo } from '../../../api/get-user-info.ts';
import { Page } from '../../../shared/ui/page.tsx';
import { ErrorState } from '../../../shared/ui/state-block.tsx';
import { LoginPasswordForm } from '../components/login-password-form.tsx';
import { WithdrawPasswordForm } from '../components/withdraw-password-form.tsx';

/** Its data is asked for as soon as this page's code is in (app/routes.tsx). */
export function prefetch(client: QueryClient): void {
  void client.prefetchQuery(userInfoQueryOptions());
}

type Segment = 'login' | 'withdraw';

function PasswordSegments({ hasWithdrawPassword }: { hasWithdrawPassword: boolean }) {
  const { t } = useTranslation();
  // why: an account without a withdrawal password came here to set one; every account already
  // has a login password (set at registration), so that segment only changes it.
  const [segment, setSegment] = useState<Segment>(hasWithdrawPassword ? 'login' : 'withdraw');
  return (
    <>
      <Tabs activeKey={segment} onChange={(key) => setSegment(key as Segment)} data-testid="spwd-segments">
        <Tabs.Tab key="login" title={t('security.items.loginPassword')} />
        <Tabs.Tab key="withdraw" title={t('security.items.withdrawPassword')} />
      </Tabs>
      <div className="password-segment">
        {segment === 'login' ? (
          <LoginPasswordForm testIdPrefix="spwd" />
        ) : (
          <>
            <p className="note note-info">
              {hasWithdrawPassword
                ? t('security.withdrawPassword.note')
                : t('security.setPassword.withdrawNote')}
            </p>
            <WithdrawPasswordForm
              key={String(hasWithdrawPassword)}
              hasPassword={hasWithdrawPassword}
              testIdPrefix="spwd-pay"
            />
          </>
        )}
      </div>
    </>
  );
}

/**
 * `/Index/spwd`, the spec's "Set login password": one page for both passwords. The withdrawal
 * segment sets the withdrawal password (new and confirmation) for an account that has none and
 * changes it (current one first) otherwise; the login segment changes the login password.
 * `/Index/withdrawpwd` stays the page the withdrawal guard sends to.
 */
export default function SetPasswordPage() {
  const { t } = useTranslation();
  const user = useUserInfo();
  return (
    <Page title={t('security.setPassword.title')}>
      {user.isError ? (
        <ErrorState message={user.error.message} onRetry={() => user.refetch()} />
      ) : user.isPending ? (
        <Skeleton.Paragraph lineCount={6} animated />
      ) : (
        <PasswordSegments hasWithdrawPassword={Boolean(user.data.paypassword)} />
      )}
    </Page>
  );
}
