// Takes a desktop screenshot of the back office's index-sources panel into
// docs/screens/admin-index-sources.png, with the server following the loopback fixture venues
// (binance, okx, bybit) the tests use: no internet. okx quotes BTC far off the others, so the
// panel shows an outlier dropped; the venues quote again every second so the others stay fresh.
// Usage: node apps/admin/scripts/index-sources-screenshot.mjs (after building the back office;
// ADMIN_DIST may point at another build).
import path from 'node:path';
import { startVenues } from '../../server/test/venues/venue-server.ts';
import { openBackOffice, SCREENS } from './lib/back-office.mjs';

const fixtures = await startVenues();
const PRICES = {
  binance: { 'BTC/USDT': '96500.12', 'ETH/USDT': '3450.55', 'SOL/USDT': '238.41' },
  okx: { 'BTC/USDT': '100020.5', 'ETH/USDT': '3450.61', 'SOL/USDT': '238.43' },
  bybit: { 'BTC/USDT': '96499.87', 'ETH/USDT': '3450.48' },
};
const quote = () => {
  for (const [venue, prices] of Object.entries(PRICES)) {
    for (const [symbol, price] of Object.entries(prices)) fixtures.venues[venue].setPrice(symbol, price);
  }
};
quote();
const quoting = setInterval(quote, 1000);

try {
  const { page, url, stop } = await openBackOffice({
    INDEX_SOURCES: 'binance,okx,bybit',
    INDEX_SOURCE_URLS: fixtures.env,
  });
  try {
    await page.goto(`${url}/admin/#/index-sources`);
    // the outlier shows once the feed has aggregated with okx connected
    await page.getByText('Dropped: outlier').waitFor({ timeout: 30_000 });
    await page.waitForTimeout(500);
    await page.screenshot({ path: path.join(SCREENS, 'admin-index-sources.png') });
  } finally {
    await stop();
  }
} finally {
  clearInterval(quoting);
  await fixtures.close();
}
