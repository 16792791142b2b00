import { useMutation } from '@tanstack/react-query';
import { post } from '../../../api/http.ts';

/** `POST /user/online`: the URL of the support chat for this user. */
export async function getOnlineSupportUrl(): Promise<string> {
  return (await post('/user/online', undefined, 'OnlineSupportUrl')).data;
}

function openUrl(url: string): void {
  // why: the support chat may be a page of this app (`#/User/contactKehu`); stay in the app then.
  if (url.startsWith('#')) {
    window.location.hash = url.slice(1);
    return;
  }
  const opened = window.open(url, '_blank');
  // why: after an await, browsers may block the new tab; then go there in this one.
  if (opened) opened.opener = null;
  else window.location.assign(url);
}

/** Asks for the support URL and opens it. */
export function useOpenOnlineSupport() {
  return useMutation({
    mutationFn: getOnlineSupportUrl,
    onSuccess: (url) => {
      if (url) openUrl(url);
    },
  });
}
