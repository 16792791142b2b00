import { useTranslation } from 'react-i18next';
import { PATHS } from '../../../shared/paths.ts';
import { ContentListPage } from '../components/content-views.tsx';

/** `/Index/help`: the help centre's articles. */
export default function HelpListPage() {
  const { t } = useTranslation();
  return (
    <ContentListPage
      kind="help"
      title={t('content.help')}
      empty={t('content.noHelp')}
      detailPath={PATHS.helpArticle}
    />
  );
}
