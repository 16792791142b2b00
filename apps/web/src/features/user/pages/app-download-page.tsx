import '../components/user.css';
import Button from 'antd-mobile/es/components/button';
import { QRCodeSVG } from 'qrcode.react';
import { useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import {
  getInstallPrompt,
  isRunningInstalled,
  promptInstall,
  subscribeInstallPrompt,
} from '../../../shared/install-prompt.ts';
import { CopyButton } from '../../../shared/ui/copy-button.tsx';
import { Page } from '../../../shared/ui/page.tsx';
import { showToast } from '../../../shared/ui/toast.ts';

type Platform = 'ios' | 'android' | 'other';

function detectPlatform(): Platform {
  const agent = navigator.userAgent;
  // why: iPadOS says "Macintosh"; only its touch screen tells it apart from a Mac.
  if (/iPhone|iPad|iPod/.test(agent) || (/Macintosh/.test(agent) && navigator.maxTouchPoints > 1))
    return 'ios';
  if (/Android/.test(agent)) return 'android';
  return 'other';
}

/** The app's address without the in-app route, the one to open or install from. */
function appAddress(): string {
  return `${window.location.origin}${window.location.pathname}`;
}

function Steps({ platform }: { platform: 'ios' | 'android' }) {
  const { t } = useTranslation();
  return (
    <section className="download-steps" data-testid={`download-steps-${platform}`}>
      <h2>{t(`download.${platform}.title`)}</h2>
      <ol>
        <li>{t(`download.${platform}.step1`)}</li>
        <li>{t(`download.${platform}.step2`)}</li>
        <li>{t(`download.${platform}.step3`)}</li>
      </ol>
    </section>
  );
}

/**
 * The app download screen: Bourse installs from the browser (it is a PWA), so this page offers the
 * browser's own install dialog where there is one, says how to add the app to the home screen on
 * iOS and Android otherwise, and shows the app's address as a QR code for another phone.
 */
export default function AppDownloadPage() {
  const { t } = useTranslation();
  const offer = useSyncExternalStore(subscribeInstallPrompt, getInstallPrompt, () => null);
  const [isInstalled, setIsInstalled] = useState(isRunningInstalled);
  const [isAsking, setIsAsking] = useState(false);
  const [platform] = useState(detectPlatform);
  const address = appAddress();

  async function install() {
    if (isAsking) return;
    setIsAsking(true);
    try {
      const isAccepted = await promptInstall();
      if (isAccepted) setIsInstalled(true);
      showToast(t(isAccepted ? 'download.accepted' : 'download.dismissed'), isAccepted ? 'success' : 'fail');
    } finally {
      setIsAsking(false);
    }
  }

  return (
    <Page title={t('download.title')}>
      <section className="download-hero">
        <div className="brand-mark" aria-hidden="true">
          B
        </div>
        <h2 className="download-heading">{t('download.heading')}</h2>
        <p className="download-text">{t('download.text')}</p>
        {isInstalled ? (
          <p className="note note-info" data-testid="download-installed">
            {t('download.installed')}
          </p>
        ) : (
          offer && (
            <Button
              block
              color="primary"
              size="large"
              loading={isAsking}
              onClick={install}
              data-testid="download-install"
            >
              {t('download.install')}
            </Button>
          )
        )}
      </section>
      {!isInstalled && (
        <>
          {platform !== 'android' && <Steps platform="ios" />}
          {platform !== 'ios' && <Steps platform="android" />}
        </>
      )}
      <section className="download-qr-card">
        <h2>{t('download.scanTitle')}</h2>
        <div className="download-qr" data-testid="download-qr">
          <QRCodeSVG
            value={address}
            size={176}
            marginSize={2}
            bgColor="#ffffff"
            fgColor="#0b0e14"
            title={t('download.qrLabel')}
          />
        </div>
        <p className="download-address">
          <span className="num" data-testid="download-address">
            {address}
          </span>
          <CopyButton text={address} label={t('download.copy')} testId="download-copy" />
        </p>
      </section>
    </Page>
  );
}
