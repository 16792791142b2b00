// Takes desktop screenshots of the back office (dashboard, deposits queue) into docs/screens/.
// Usage: node apps/admin/scripts/screenshots.mjs (after `npm run build -w @bourse/admin`).
import path from 'node:path';
import { openBackOffice, SCREENS } from './lib/back-office.mjs';

const { page, url, stop } = await openBackOffice();
try {
  await page.waitForTimeout(500);
  await page.screenshot({ path: path.join(SCREENS, 'admin-dashboard.png') });
  await page.goto(`${url}/admin/#/deposits`);
  await page.locator('.ant-table').waitFor();
  await page.waitForTimeout(800);
  await page.screenshot({ path: path.join(SCREENS, 'admin-deposits.png') });
} finally {
  await stop();
}
