import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../api/http.ts';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 10_000,
      refetchOnWindowFocus: false,
      // why: business errors (wrong code, invalid session) will not heal by retrying; networks may.
      retry: (failureCount, error) => failureCount < 2 && error instanceof ApiError && error.code === -1,
    },
    mutations: { retry: false },
  },
});
