import { useTranslation } from 'react-i18next';
import { useContentPage } from '../api/content.ts';
import { ContentArticlePage } from '../components/content-views.tsx';

/** `/Index/msb` (spec §2): the operator's MSB certificate page, as content staff wrote it. */
export default function MsbPage() {
  const { t } = useTranslation();
  return <ContentArticlePage title={t('content.msb')} query={useContentPage('msb')} showTime={false} />;
}
