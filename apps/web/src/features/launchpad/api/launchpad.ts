import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { historyPages } from '../../../api/history-pages.ts';
import { API_BASE, get, post } from '../../../api/http.ts';
import { syncServerClock } from '../../../shared/server-clock.ts';
import { getToken } from '../../../shared/storage.ts';

const KEY = ['launchpad'] as const;

/** `GET /Issue/index`: the projects with state and progress; syncs the countdowns to the server's clock. */
export function useProjects() {
  return useQuery({
    queryKey: [...KEY, 'projects'],
    queryFn: async ({ signal }) => {
      const sentAt = Date.now();
      const data = (await get('/Issue/index', undefined, 'IssueProjectList', { signal })).data;
      syncServerClock(data.server_time, sentAt);
      return data;
    },
    refetchInterval: 30_000,
  });
}

/** `GET /Issue/details`: one project, the user's part, and the price of `num` tokens at today's demand. */
export function useProject(id: string, num: string) {
  return useQuery({
    queryKey: [...KEY, 'project', id, num],
    queryFn: async ({ signal }) => {
      const sentAt = Date.now();
      const data = (await get('/Issue/details', { id, ...(num ? { num } : {}) }, 'IssueDetail', { signal }))
        .data;
      syncServerClock(data.server_time, sentAt);
      return data;
    },
    placeholderData: keepPreviousData,
    enabled: id !== '',
  });
}

/** `POST /Issue/buy`: one submission, one idempotency key. */
export function useSubscribe() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: string; num: string; key: string }) =>
      post('/Issue/buy', { id: input.id, num: input.num, idempotency_key: input.key }, 'IssueRecord', {
        action: 'submit',
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: KEY }),
  });
}

/** `GET /Finance/getmoney`: the quote coin the user can pay with. */
export function useAvailable(coin: string) {
  return useQuery({
    queryKey: [...KEY, 'balance', coin],
    queryFn: async ({ signal }) =>
      (await get('/Finance/getmoney', { coin }, 'CoinBalance', { signal, silent: true })).data,
    enabled: coin !== '',
  });
}

/** `GET /Issue/issuelog`: the user's records, newest first, 20 a page. */
export function useRecords() {
  return useInfiniteQuery({
    queryKey: [...KEY, 'records'],
    queryFn: async ({ pageParam, signal }) =>
      (await get('/Issue/issuelog', { before: pageParam }, 'IssueRecordList', { signal })).data,
    ...historyPages,
  });
}

/** `GET /Agent/status`. */
export function useAgentStatus() {
  return useQuery({
    queryKey: [...KEY, 'agent'],
    queryFn: async ({ signal }) =>
      (await get('/Agent/status', undefined, 'AgentStatusInfo', { signal })).data,
  });
}

export function useApplyAgent() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => post('/Agent/apply', undefined, 'NoData'),
    onSuccess: () => client.invalidateQueries({ queryKey: [...KEY, 'agent'] }),
  });
}

/** `GET /Agent/index`: the team (one generation or all), masked, and the daily rewards. */
export function useAgentCentre(generation: number | undefined, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: [...KEY, 'centre', generation ?? 0],
    queryFn: async ({ pageParam, signal }) =>
      (await get('/Agent/index', { page: pageParam, generation }, 'AgentCentre', { signal, silent: true }))
        .data,
    initialPageParam: 1,
    getNextPageParam: (last, _all, page) => (last.has_more ? page + 1 : undefined),
    enabled,
  });
}

/** `GET /Agent/rewards`: the agent's reward records. */
export function useAgentRewards(enabled: boolean) {
  return useInfiniteQuery({
    queryKey: [...KEY, 'agentRewards'],
    queryFn: async ({ pageParam, signal }) =>
      (await get('/Agent/rewards', { before: pageParam }, 'RewardList', { signal, silent: true })).data,
    ...historyPages,
    enabled,
  });
}

/** `GET /Agent/export`: the address of the team's CSV (a link downloads it with the session). */
export function agentExportUrl(): string {
  return `${API_BASE}/Agent/export?${new URLSearchParams({ token: getToken() ?? '' })}`;
}
