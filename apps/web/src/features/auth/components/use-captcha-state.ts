import { useState } from 'react';
import { useCaptcha } from '../api/get-captcha.ts';

/** Graphic code state shared by login and register: value, picture, refresh and payload. */
export function useCaptchaState(isEnabled: boolean) {
  const [code, setCode] = useState('');
  const query = useCaptcha({ enabled: isEnabled });
  const refresh = () => {
    setCode('');
    query.refetch();
  };
  const payload = isEnabled && query.data ? { code: code.trim(), key: query.data.key } : undefined;
  return { code, setCode, captcha: query.data, isLoading: query.isFetching, refresh, payload };
}

export type CaptchaState = ReturnType<typeof useCaptchaState>;
