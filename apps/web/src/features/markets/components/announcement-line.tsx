import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useMarquee } from '../../../api/marquee.ts';
import { PATHS, withQuery } from '../../../shared/paths.ts';
import { IconMegaphone } from '../../../shared/ui/shell-icons.tsx';

/**
 * The newest pinned announcement, scrolling across the top of the market list (a few passes,
 * then it rests; still under reduced motion); a tap opens it. Nothing when none is pinned.
 */
export function AnnouncementLine() {
  const { t } = useTranslation();
  const item = useMarquee().data?.item;
  if (!item) return null;
  return (
    <Link
      to={withQuery(PATHS.announcement, { id: String(item.id) })}
      className="announcement-line"
      data-testid="announcement-line"
    >
      <IconMegaphone className="announcement-line-icon" />
      <span className="visually-hidden">{t('markets.announcement')}: </span>
      <span className="announcement-line-track">
        <span className="announcement-line-text">{item.title}</span>
      </span>
    </Link>
  );
}
