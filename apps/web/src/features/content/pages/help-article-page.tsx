import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useContentItem } from '../api/content.ts';
import { ContentArticlePage } from '../components/content-views.tsx';

/** `/Index/helpinfo?id=`: one help article. */
export default function HelpArticlePage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = Number(params.get('id') ?? 0);
  const query = useContentItem('help', Number.isSafeInteger(id) ? id : 0);
  return <ContentArticlePage title={t('content.help')} query={query} showTime={false} />;
}
