import type { QueryClient } from '@tanstack/react-query';
import '../components/user.css';
import { LazySchema, useSchemaForm } from '@bourse/forms';
import { PASSWORD_MAX } from '@bourse/shared/api';
import Skeleton from 'antd-mobile/es/components/skeleton';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { userInfoQueryOptions, useUserInfo } from '../../../api/get-user-info.ts';
import { FormTextField } from '../../../shared/form/form-fields.tsx';
import { NAVIGATE_DELAY_MS } from '../../../shared/timing.ts';
import { Page } from '../../../shared/ui/page.tsx';
import { ErrorState } from '../../../shared/ui/state-block.tsx';
import { SubmitButton } from '../../../shared/ui/submit-button.tsx';
import { showToast } from '../../../shared/ui/toast.ts';
import { useBack } from '../../../shared/ui/use-back.ts';
import { useOpenOnlineSupport } from '../api/get-online-support-url.ts';
import { useSetWithdrawPassword } from '../api/set-withdraw-password.ts';
import type { withdrawPasswordFields } from '../components/validate-password.ts';

/** Its data is asked for as soon as this page's code is in (app/routes.tsx). */
export function prefetch(client: QueryClient): void {
  void client.prefetchQuery(userInfoQueryOptions());
}

function WithdrawPasswordForm({ hasPassword }: { hasPassword: boolean }) {
  const { t } = useTranslation();
  const goBack = useBack();
  const mutation = useSetWithdrawPassword();
  const support = useOpenOnlineSupport();
  // why: zod and the request schemas load when the form is first used, not with the page.
  const [validation] = useState(
    () =>
      new LazySchema<ReturnType<typeof withdrawPasswordFields>>(() =>
        import('../components/validate-password.ts').then((m) => m.withdrawPasswordFields(hasPassword)),
      ),
  );
  const form = useSchemaForm(validation, {
    defaultValues: { oldpaypassword: '', paypassword: '', repaypassword: '' },
  });
  const [isDone, setIsDone] = useState(false);
  const isBusy = mutation.isPending || isDone;

  const submit = form.handleSubmit((values) => {
    if (isBusy) return;
    mutation.mutate(
      {
        paypassword: values.paypassword,
        repaypassword: values.repaypassword,
        oldpaypassword: hasPassword ? values.oldpaypassword : undefined,
      },
      {
        onSuccess: (body) => {
          setIsDone(true);
          showToast(body.msg, 'success');
          setTimeout(goBack, NAVIGATE_DELAY_MS);
        },
      },
    );
  });

  return (
    <form onSubmit={submit} onFocus={validation.preload} noValidate>
      {hasPassword && (
        <FormTextField
          control={form.control}
          name="oldpaypassword"
          label={t('security.withdrawPassword.old')}
          placeholder={t('security.withdrawPassword.oldPlaceholder')}
          type="password"
          autoComplete="off"
          maxLength={64}
          testId="withdrawpwd-old"
        />
      )}
      <FormTextField
        control={form.control}
        name="paypassword"
        label={t('security.withdrawPassword.new')}
        placeholder={t('security.passwordRule')}
        type="password"
        autoComplete="new-password"
        maxLength={PASSWORD_MAX}
        testId="withdrawpwd-new"
      />
      <FormTextField
        control={form.control}
        name="repaypassword"
        label={t('security.withdrawPassword.confirm')}
        placeholder={t('auth.fields.password2Placeholder')}
        type="password"
        autoComplete="new-password"
        maxLength={PASSWORD_MAX}
        testId="withdrawpwd-confirm"
      />
      <SubmitButton isBusy={isBusy} testId="withdrawpwd-submit" className="form-actions">
        {t('common.confirm')}
      </SubmitButton>
      {hasPassword && (
        <p className="page-footnote">
          {t('security.withdrawPassword.forgot')}{' '}
          <button
            type="button"
            className="text-button"
            onClick={() => {
              if (!support.isPending) support.mutate();
            }}
          >
            {t('user.menu.support')}
          </button>
        </p>
      )}
    </form>
  );
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
            <WithdrawPasswordForm key={String(hasPassword)} hasPassword={hasPassword} />
          )}
        </>
      )}
    </Page>
  );
}
