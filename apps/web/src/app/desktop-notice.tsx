import { QRCodeSVG } from 'qrcode.react';
import { useTranslation } from 'react-i18next';

/** Full-page notice for desktop browsers: open Bourse on a phone, by scanning this address. */
export default function DesktopNotice() {
  const { t } = useTranslation();
  const url = window.location.href;
  return (
    <div className="desktop-notice" data-testid="desktop-notice">
      <div className="desktop-notice-card">
        <div className="brand-mark" aria-hidden="true">
          B
        </div>
        <h1 className="desktop-notice-title">{t('desktop.title')}</h1>
        <p className="desktop-notice-text">{t('desktop.text')}</p>
        <div className="desktop-notice-qr">
          <QRCodeSVG value={url} size={184} marginSize={2} bgColor="#ffffff" fgColor="#0b0e14" />
        </div>
        <p className="desktop-notice-hint">{t('desktop.scan')}</p>
        <p className="desktop-notice-url">{url}</p>
      </div>
    </div>
  );
}
