import type { IdentitySubmitBody } from '@bourse/shared/api';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { userInfoQueryKey } from '../../../api/get-user-info.ts';
import { historyPages } from '../../../api/history-pages.ts';
import { get, post, postMultipart } from '../../../api/http.ts';
import { noticesKey, unreadNoticesKey } from '../../../api/unread-notices.ts';
import type { WireInput } from '../../../api/wire-input.ts';

/** Query keys of the account services; a mutation invalidates the ones it changes. */
export const accountKeys = {
  security: ['account', 'security'] as const,
  identity: ['account', 'identity'] as const,
  sessions: ['account', 'sessions'] as const,
  loginLog: ['account', 'login-log'] as const,
  notices: [...noticesKey, 'list'] as const,
  notice: (id: number) => ['account', 'notice', id] as const,
};

/** `GET /user/security`: bound e-mail and mobile, two-factor codes, anti-phishing code. */
export function useSecurity() {
  return useQuery({
    queryKey: accountKeys.security,
    queryFn: async ({ signal }) =>
      (await get('/user/security', undefined, 'SecurityOverview', { signal })).data,
  });
}

/** A mutation that refreshes the security overview (and the profile) when it succeeds. */
function useSecurityMutation<I, O>(call: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: accountKeys.security });
      queryClient.invalidateQueries({ queryKey: userInfoQueryKey });
    },
  });
}

export const useTotpSetup = () =>
  useMutation({ mutationFn: () => post('/user/totpsetup', undefined, 'TotpSetup') });
export const useTotpEnable = () =>
  useSecurityMutation((code: string) => post('/user/totpenable', { code }, 'BackupCodes'));
export const useTotpDisable = () =>
  useSecurityMutation((code: string) => post('/user/totpdisable', { code }, 'NoData'));
export const useSetAntiPhishing = () =>
  useSecurityMutation((code: string) => post('/user/antiphishing', { code }, 'NoData'));
export const useBindMobile = () =>
  useSecurityMutation((input: { mobile: string; password: string }) =>
    post('/user/bindmobile', { mobile: input.mobile, lpwd: input.password }, 'NoData'),
  );

export function useSessions() {
  return useQuery({
    queryKey: accountKeys.sessions,
    queryFn: async ({ signal }) =>
      (await get('/user/sessions', undefined, 'SessionList', { signal })).data.list,
  });
}

export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number | 'others') =>
      id === 'others'
        ? post('/user/endothers', undefined, 'NoData')
        : post('/user/endsession', { id }, 'NoData'),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.sessions }),
  });
}

export function useLoginLog() {
  return useInfiniteQuery({
    queryKey: accountKeys.loginLog,
    queryFn: async ({ pageParam, signal }) =>
      (await get('/user/loginlog', { before: pageParam }, 'UserLoginLog', { signal })).data,
    ...historyPages,
  });
}

// ---- real-name verification ----

export function useIdentity() {
  return useQuery({
    queryKey: accountKeys.identity,
    queryFn: async ({ signal }) => (await get('/user/authrz', undefined, 'IdentityState', { signal })).data,
  });
}

/** Uploads one identity image (stored privately); resolves with its handle. */
export async function uploadIdentityImage(file: File): Promise<string> {
  const form = new FormData();
  form.append('image', file, file.name);
  return (await postMultipart('/user/upauthimg', form, 'IdentityUploadResult')).data.image;
}

export function useSubmitIdentity() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: WireInput<IdentitySubmitBody>) =>
      post('/user/upauthrz', { ...input }, 'NoData', { action: 'submit' }),
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: accountKeys.identity });
      queryClient.invalidateQueries({ queryKey: userInfoQueryKey });
    },
  });
}

// ---- notifications ----

export function useNotices() {
  return useInfiniteQuery({
    queryKey: accountKeys.notices,
    queryFn: async ({ pageParam, signal }) =>
      (await get('/user/notice', { before: pageParam }, 'NoticeList', { signal })).data,
    ...historyPages,
  });
}

export function useNotice(id: number) {
  return useQuery({
    queryKey: accountKeys.notice(id),
    enabled: id > 0,
    queryFn: async ({ signal }) => (await get('/User/noticeinfo', { id }, 'NoticeDetail', { signal })).data,
  });
}

/** Marks one notice read (`id`), or all of them (0). */
export function useReadNotice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => post('/user/readnoticeone', { id }, 'UnreadCount'),
    onSuccess: (body, id) => {
      queryClient.setQueryData(unreadNoticesKey, body.data.unread);
      queryClient.invalidateQueries({ queryKey: accountKeys.notices });
      if (id > 0) queryClient.invalidateQueries({ queryKey: accountKeys.notice(id) });
    },
  });
}
