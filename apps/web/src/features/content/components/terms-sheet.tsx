import './terms-sheet.css';
import Button from 'antd-mobile/es/components/button';
import Popup from 'antd-mobile/es/components/popup';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PATHS } from '../../../shared/paths.ts';
import { showToast } from '../../../shared/ui/toast.ts';
import { useAcceptTerms } from '../api/terms.ts';

/**
 * The bottom sheet that asks for the terms of service in force: links to them and to the privacy
 * policy, "Later" (reading stays open) and "Accept", which records `version` (the one in force
 * when the status was read; a newer one answers TERMS_VERSION_STALE and the status is read again).
 */
export default function TermsSheet({ version, onLater }: { version: number; onLater: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const accept = useAcceptTerms();
  return (
    <Popup visible onMaskClick={accept.isPending ? undefined : onLater}>
      <div
        className="terms-sheet"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        data-testid="terms-sheet"
      >
        <h2 className="terms-sheet-title" id={titleId}>
          {t('terms.sheetTitle')}
        </h2>
        <p className="terms-sheet-body">{t('terms.sheetBody')}</p>
        <div className="terms-sheet-links">
          <Link to={PATHS.terms} data-testid="terms-sheet-terms">
            {t('terms.terms')}
          </Link>
          <Link to={PATHS.privacy} data-testid="terms-sheet-privacy">
            {t('terms.privacy')}
          </Link>
        </div>
        <div className="terms-sheet-actions">
          <Button size="large" onClick={onLater} disabled={accept.isPending} data-testid="terms-later">
            {t('terms.later')}
          </Button>
          <Button
            size="large"
            color="primary"
            loading={accept.isPending}
            disabled={accept.isPending}
            onClick={() =>
              accept.mutate(version, { onSuccess: () => showToast(t('terms.accepted'), 'success') })
            }
            data-testid="terms-accept"
          >
            {t('terms.accept')}
          </Button>
        </div>
      </div>
    </Popup>
  );
}
