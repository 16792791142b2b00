import Button from 'antd-mobile/es/components/button';
import Popup from 'antd-mobile/es/components/popup';
import { useTranslation } from 'react-i18next';

/** The confirmation before every open order of the market is cancelled (loaded on its first opening). */
export function CancelAllSheet({
  isOpen,
  isPending,
  titleId,
  text,
  onClose,
  onConfirm,
}: {
  isOpen: boolean;
  isPending: boolean;
  titleId: string;
  /** How many orders of which market. */
  text: string;
  onClose: () => void;
  onConfirm: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Popup visible={isOpen} onMaskClick={isPending ? undefined : onClose} bodyClassName="spot-sheet-body">
      <section
        className="spot-sheet"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        data-testid="cancel-all-sheet"
      >
        <h2 className="spot-sheet-title" id={titleId}>
          {t('spot.open.cancelAllTitle')}
        </h2>
        <p className="spot-sheet-text">{text}</p>
        <div className="spot-sheet-actions">
          <Button block size="large" fill="outline" onClick={onClose} disabled={isPending}>
            {t('common.back')}
          </Button>
          <Button
            block
            size="large"
            color="danger"
            loading={isPending}
            disabled={isPending}
            onClick={onConfirm}
            data-testid="cancel-all-confirm"
          >
            {t('spot.open.cancelAllConfirm')}
          </Button>
        </div>
      </section>
    </Popup>
  );
}
