import { useMutation } from '@tanstack/react-query';
import { post } from '../../../api/http.ts';
import { endSession } from '../../../shared/storage.ts';

/**
 * `POST /Login/logout`, then the spec's local logout (§4): forget token and user id, clear
 * session storage, reload. The local part runs even when the call fails (e.g. offline).
 */
export async function logout(): Promise<void> {
  try {
    await post('/Login/logout', {}, 'NoData', { silent: true });
  } finally {
    endSession();
    window.location.reload();
  }
}

export function useLogout() {
  return useMutation({ mutationFn: logout });
}
