import { useQuery } from '@tanstack/react-query';
import { ApiError, get } from '../../../api/http.ts';
import { getCurrentLocale } from '../../../shared/i18n/i18n.ts';

/** The envelope code of RECORD_NOT_FOUND: no `msb` page is published. */
const RECORD_NOT_FOUND = 3024;

/**
 * What `/Index/msb` shows: the operator's `msb` page (`/Index/page`; null when none is published)
 * and the certificate image (`/Index/msbcert`; '' when none is set).
 */
export async function getMsbCertificate(signal?: AbortSignal) {
  const [page, certificate] = await Promise.all([
    get('/Index/page', { slug: 'msb' }, 'ContentDetail', { signal, silent: true })
      .then((body) => body.data)
      .catch((error: unknown) => {
        // why: no published text is an answer here (the "not registered" state), not a failure.
        if (error instanceof ApiError && error.code === RECORD_NOT_FOUND) return null;
        throw error;
      }),
    get('/Index/msbcert', undefined, 'MsbCertificate', { signal, silent: true }),
  ]);
  return { page, imageUrl: certificate.data.image_url };
}

export function useMsbCertificate() {
  return useQuery({
    queryKey: ['content', getCurrentLocale(), 'msb-certificate'],
    queryFn: ({ signal }) => getMsbCertificate(signal),
  });
}
