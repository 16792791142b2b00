import { useTranslation } from 'react-i18next';
import { PATHS } from '../../../shared/paths.ts';
import { ContentListPage } from '../components/content-views.tsx';

/** `/Index/gglist` (spec §2): the operator's announcements, pinned first. */
export default function AnnouncementListPage() {
  const { t } = useTranslation();
  return (
    <ContentListPage
      kind="announcement"
      title={t('content.announcements')}
      empty={t('content.noAnnouncements')}
      detailPath={PATHS.announcement}
    />
  );
}
