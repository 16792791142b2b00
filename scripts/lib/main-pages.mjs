// The main pages of the customer app, in one list that `npm run bench:web` (Lighthouse), the
// accessibility and Content-Security-Policy checks (e2e/a11y.test.ts, one visit per page for both)
// and the layout check in nine languages (e2e/layout.test.ts) all visit. A later issue that adds a
// page adds it here, and every one of them covers it.

/**
 * @type {readonly import('./main-pages.d.mts').MainPage[]}
 */
export const MAIN_PAGES = [
  { name: 'markets', path: '/Trade/tradelist', ready: 'market-row-BTCUSDT', signedIn: false },
  { name: 'login', path: '/login', ready: 'login-submit', signedIn: false },
  { name: 'register', path: '/register', ready: 'register-submit', signedIn: false },
  { name: 'language', path: '/Login/setlang', ready: 'lang-en-US', signedIn: false },
  { name: 'not-found', path: '/404', ready: 'not-found', signedIn: false },
  { name: 'user', path: '/Index/uoption', ready: 'profile-username', signedIn: true },
  { name: 'security', path: '/Index/security', ready: 'last-login', signedIn: true },
  // why: a new account has no withdrawal password, so the page opens on that segment's set flow.
  { name: 'set-password', path: '/Index/spwd', ready: 'spwd-pay-submit', signedIn: true },
  { name: 'change-password', path: '/Index/respwd', ready: 'respwd-submit', signedIn: true },
  { name: 'withdraw-password', path: '/Index/withdrawpwd', ready: 'withdrawpwd-submit', signedIn: true },
  { name: 'app-download', path: '/Index/download', ready: 'download-qr', signedIn: true },
  { name: 'assets', path: '/User/index', ready: 'assets-total', signedIn: true },
  { name: 'deposit', path: '/User/czpage?coin=USDT', ready: 'deposit-submit', signedIn: true },
  { name: 'deposit-list', path: '/User/czlist', ready: 'empty-state', signedIn: true },
  { name: 'withdraw', path: '/User/txpage?coin=USDT', ready: 'withdraw-submit', signedIn: true },
  { name: 'address-list', path: '/User/addresslist', ready: 'address-add', signedIn: true },
  { name: 'convert', path: '/User/zhuanhua', ready: 'convert-submit', signedIn: true },
  // why: a new account has no bill until it moves money (trial money needs a verified identity).
  { name: 'bills', path: '/User/mybill', ready: 'empty-state', signedIn: true },
  { name: 'contract', path: '/Contract/index', ready: 'index-price', signedIn: true },
  { name: 'contract-list', path: '/Contract/ctbill', ready: 'empty-state', signedIn: true },
  { name: 'spot-trade', path: '/Trade/index', ready: 'spot-trade-ready', signedIn: true },
  { name: 'spot-orders', path: '/Trade/tradebill', ready: 'order-list', signedIn: true },
  { name: 'notices', path: '/Index/notice', ready: 'notices-empty', signedIn: true },
  { name: 'identity', path: '/User/authrz', ready: 'identity-type', signedIn: true },
  { name: 'support-chat', path: '/User/contactKehu', ready: 'chat-input', signedIn: true },
  { name: 'announcements', path: '/Index/gglist', ready: 'content-list', signedIn: true },
  { name: 'about-us', path: '/Index/aboutus', ready: 'content-article', signedIn: true },
];

/**
 * Seeds the session the way the app keeps it (apps/web/src/shared/storage.ts: `token` and `uid`
 * in localStorage). Runs in the page, e.g. through Playwright's `addInitScript` or `evaluate`.
 * @param {{ token: string, uid: number | string }} session
 */
export function seedSession(session) {
  localStorage.setItem('token', session.token);
  localStorage.setItem('uid', String(session.uid));
}
