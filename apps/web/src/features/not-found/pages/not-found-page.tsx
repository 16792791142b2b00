import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PATHS } from '../../../shared/paths.ts';
import { IconCompass } from '../../../shared/ui/icons.tsx';
import { Page } from '../../../shared/ui/page.tsx';

export default function NotFoundPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Page title={t('notFound.title')}>
      <div className="state-block" data-testid="not-found">
        <IconCompass className="state-block-icon" />
        <p className="state-block-title num">404</p>
        <p className="state-block-text">{t('notFound.text')}</p>
        <Button color="primary" onClick={() => navigate(PATHS.markets, { replace: true })}>
          {t('notFound.home')}
        </Button>
      </div>
    </Page>
  );
}
