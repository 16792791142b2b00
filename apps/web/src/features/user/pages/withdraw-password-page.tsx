import type { QueryClient } from '@tanstack/react-query';
import '../components/user.css';
import Skeleton from 'antd-mobile/es/components/skeleton';
import { useTranslation } from 'react-i18next';
import { userInfoQueryOptions, useUserInfo } from '../../../api/get-user-info.ts';
import { Page } from '../../../shared/ui/page.tsx';
import { ErrorState } from '../../../shared/ui/state-block.tsx';
import { WithdrawPasswordForm } from '../components/withdraw-password-form.tsx';

/** Its data is asked for as soon as this page's code is in (app/routes.tsx). */
export function prefetch(client: QueryClient): void {
  void client.prefetchQuery(userInfoQueryOptions());
}

/** Set the withdrawal password, or change it (asking for the old one) when one is set. */
export default function WithdrawPasswordPage() {
  const { t } = useTranslation();
  const user = useUserInfo();
  const hasPassword = Boolean(user.data?.paypassword);
  const title =
    user.data && hasPassword
      ? t('security.withdrawPassword.changeTitle')
      : t('security.withdrawPassword.setTitle');
  return (
    <Page title={title}>
      {user.isError ? (
        <ErrorState message={user.error.message} onRetry={() => user.refetch()} />
      ) : (
        <>
          {/* why: the note is the page's largest text and needs no data: drawn with the first
              render, it is not held back until the user info arrives. */}
          <p className="note note-info">{t('security.withdrawPassword.note')}</p>
          {user.isPending ? (
            <Skeleton.Paragraph lineCount={5} animated />
          ) : (
            <WithdrawPasswordForm
              key={String(hasPassword)}
              hasPassword={hasPassword}
              testIdPrefix="withdrawpwd"
            />
          )}
        </>
      )}
    </Page>
  );
}
