import { lazy } from 'react';

// why: the QR encoder (about 6 KB gzipped) is fetched beside the page's data, not before the
// page's first paint. It suspends: the page shows its address card, code included, in one piece.
const loadQr = () => import('qrcode.react');
const QRCodeSVG = lazy(() => loadQr().then((m) => ({ default: m.QRCodeSVG })));

/** Starts fetching the QR encoder, for a page that will show a code once its data is in. */
export function preloadAddressQr(): void {
  loadQr().catch(() => undefined);
}

/** The deposit address as a QR code of `size` pixels, in its white frame; suspends until the encoder is in. */
export function AddressQr({ value, size, title }: { value: string; size: number; title: string }) {
  return (
    <div className="address-qr">
      <QRCodeSVG value={value} size={size} marginSize={0} title={title} />
    </div>
  );
}
