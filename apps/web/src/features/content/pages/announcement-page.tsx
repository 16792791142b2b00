import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useContentItem } from '../api/content.ts';
import { ContentArticlePage } from '../components/content-views.tsx';

/** `/Index/gginfo?id=` (spec §2): one announcement. */
export default function AnnouncementPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = Number(params.get('id') ?? 0);
  const query = useContentItem('announcement', Number.isSafeInteger(id) ? id : 0);
  return <ContentArticlePage title={t('content.announcement')} query={query} />;
}
