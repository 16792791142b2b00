import Button from 'antd-mobile/es/components/button';
import Popup from 'antd-mobile/es/components/popup';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { DetailList, type DetailRow } from './detail-list.tsx';

export interface ConfirmSheetProps {
  isOpen: boolean;
  title: string;
  rows: readonly DetailRow[];
  isBusy: boolean;
  onConfirm: () => void;
  onClose: () => void;
  testId: string;
}

/**
 * The bottom sheet that confirms a money-moving action with its figures spelled out (amount,
 * fee, what arrives). Confirming runs `onConfirm`; the sheet stays busy until it settles.
 */
export function ConfirmSheet({ isOpen, title, rows, isBusy, onConfirm, onClose, testId }: ConfirmSheetProps) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <Popup visible={isOpen} onMaskClick={isBusy ? undefined : onClose} bodyClassName="confirm-sheet-body">
      <section className="confirm-sheet" role="dialog" aria-modal="true" aria-labelledby={titleId}>
        <h2 className="confirm-sheet-title" id={titleId}>
          {title}
        </h2>
        <DetailList rows={rows} />
        <div className="confirm-sheet-actions">
          <Button block size="large" fill="outline" onClick={onClose} disabled={isBusy}>
            {t('common.cancel')}
          </Button>
          <Button
            block
            size="large"
            color="primary"
            loading={isBusy}
            disabled={isBusy}
            onClick={onConfirm}
            data-testid={testId}
          >
            {t('common.confirm')}
          </Button>
        </div>
      </section>
    </Popup>
  );
}
