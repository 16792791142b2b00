import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { hasToken } from '../shared/storage.ts';

/** What a route needs from the shell around its page. */
export interface RouteMeta {
  /** Reachable without a session (spec §2: /login, /register, /Login/setlang, /Trade/tradelist, /404). */
  public: boolean;
  /** Shows the bottom tab bar. */
  tabBar: boolean;
  /** Page background; spec §2 names the white ones. */
  background: 'dark' | 'white';
}

/**
 * What a page module may export beside its page: `prefetch` starts the page's first data requests
 * (`client.prefetchQuery` with the options its hooks use) as soon as its code has arrived, while
 * its texts load and the app renders; the page's queries then join those requests.
 */
export interface PageModule {
  default: ComponentType;
  prefetch?: (client: QueryClient, search: URLSearchParams) => void;
}

export interface AppRoute {
  /** The spec's path, exactly as in the URL (matched case-insensitively). */
  path: string;
  meta: RouteMeta;
  /**
   * The page module, loaded only when the route is visited. Routes declared without a page
   * belong to a later issue: their metadata already counts (guards, background), and the
   * path shows /404 until the page arrives.
   */
  page?: () => Promise<PageModule>;
}

const DEFAULT_META: RouteMeta = { public: false, tabBar: false, background: 'dark' };

function route(
  path: string,
  page: NonNullable<AppRoute['page']> | null,
  meta: Partial<RouteMeta> = {},
  texts: readonly string[] = [],
): AppRoute {
  if (page === null) return { path, meta: { ...DEFAULT_META, ...meta } };
  // why: a page's texts beyond the core ones are chunks of their own, loaded with its code (the
  // i18n module is imported here only when a page loads, so the route table stays plain data).
  const isPublic = meta.public === true;
  const withData: NonNullable<AppRoute['page']> = () =>
    page().then((m) => {
      // why: a private page's requests wait for a session (without one the guard sends the
      // visitor to /login); the search is the URL's at the time the page's code arrives.
      if (m.prefetch && pageQueryClient && (isPublic || hasToken())) {
        m.prefetch(pageQueryClient, new URLSearchParams(window.location.hash.split('?')[1] ?? ''));
      }
      return m;
    });
  const load: NonNullable<AppRoute['page']> =
    texts.length === 0
      ? withData
      : () =>
          Promise.all([
            import('../shared/i18n/i18n.ts').then((i18n) => i18n.ensureNamespaces(texts)),
            withData(),
          ]).then(([, m]) => m);
  const remembered: NonNullable<AppRoute['page']> = () =>
    load().then((m) => {
      loadedPages.set(path, m);
      return m;
    });
  return { path, page: remembered, meta: { ...DEFAULT_META, ...meta } };
}

/** The query client pages prefetch into; set at start (app/setup.ts), so this table stays data. */
let pageQueryClient: QueryClient | undefined;

export function setPageQueryClient(client: QueryClient): void {
  pageQueryClient = client;
}

/** Page modules whose code and texts are in, by route path. */
const loadedPages = new Map<string, PageModule>();

/**
 * The page module of `path` when its code and texts have already loaded (the entry page, which
 * main.tsx loads before the first render), else undefined.
 */
export function getLoadedPage(path: string): PageModule | undefined {
  return loadedPages.get(path);
}

const USER = ['user', 'security'];
const WALLET = ['wallet'];
const DELIVERY = ['delivery'];
const SPOT = ['spot'];
const LAUNCHPAD = ['launchpad'];
const MINING = ['mining'];
const PERP = ['perp'];

/**
 * Every page of the customer app, in one place: the spec's paths (pinyin-flavoured, they are the
 * contract) on the left, plain-English page modules on the right. `/` redirects to the markets,
 * and anything not listed lands on /404.
 */
// why: one chunk each for the small content pages and the lighter account pages: one entry each
// in the first page's table of chunks.
const contentPages = () => import('../features/content/pages/content-pages.tsx');
const accountPages = () => import('../features/account/pages/account-pages.ts');
const launchpadPages = () => import('../features/launchpad/pages/launchpad-pages.ts');
const miningPages = () => import('../features/mining/pages/mining-pages.ts');

export const APP_ROUTES: readonly AppRoute[] = [
  route('/login', () => import('../features/auth/pages/login-page.tsx'), { public: true }),
  route('/register', () => import('../features/auth/pages/register-page.tsx'), { public: true }),
  route('/Login/setlang', () => import('../features/settings/pages/language-page.tsx'), { public: true }),
  route('/404', () => import('../features/not-found/pages/not-found-page.tsx'), { public: true }),
  route('/Trade/tradelist', () => import('../features/markets/pages/market-list-page.tsx'), {
    public: true,
    tabBar: true,
  }),
  route('/Index/uoption', () => import('../features/user/pages/user-page.tsx'), { tabBar: true }, USER),
  route('/Index/security', () => import('../features/user/pages/security-page.tsx'), {}, USER),
  route('/Index/spwd', () => import('../features/user/pages/set-password-page.tsx'), {}, USER),
  route('/Index/respwd', () => import('../features/user/pages/change-password-page.tsx'), {}, USER),
  route('/Index/withdrawpwd', () => import('../features/user/pages/withdraw-password-page.tsx'), {}, USER),
  route('/Index/download', () => import('../features/user/pages/app-download-page.tsx'), {}, [
    ...USER,
    'download',
  ]),
  // The wallet. Bank cards, conversion and bills have no path in the spec: theirs follow its style.
  route('/User/index', () => import('../features/wallet/pages/assets-page.tsx'), { tabBar: true }, WALLET),
  route('/User/myWallte', () => import('../features/wallet/pages/my-wallet-page.tsx'), {}, WALLET),
  route('/User/coininfo', () => import('../features/wallet/pages/coin-info-page.tsx'), {}, WALLET),
  route('/User/czcoin', () => import('../features/wallet/pages/deposit-coins-page.tsx'), {}, WALLET),
  route('/User/czpage', () => import('../features/wallet/pages/deposit-page.tsx'), {}, WALLET),
  route('/User/czlist', () => import('../features/wallet/pages/deposit-list-page.tsx'), {}, WALLET),
  route('/User/czinfo', () => import('../features/wallet/pages/deposit-detail-page.tsx'), {}, WALLET),
  route('/User/txcoin', () => import('../features/wallet/pages/withdraw-coins-page.tsx'), {}, WALLET),
  route('/User/txpage', () => import('../features/wallet/pages/withdraw-page.tsx'), {}, WALLET),
  route('/User/txlist', () => import('../features/wallet/pages/withdrawal-list-page.tsx'), {}, WALLET),
  route('/User/txinfo', () => import('../features/wallet/pages/withdrawal-detail-page.tsx'), {}, WALLET),
  route('/User/addresslist', () => import('../features/wallet/pages/address-list-page.tsx'), {}, WALLET),
  route('/User/plusaddress', () => import('../features/wallet/pages/add-address-page.tsx'), {}, WALLET),
  route('/User/banklist', () => import('../features/wallet/pages/bank-card-list-page.tsx'), {}, WALLET),
  route('/User/addbank', () => import('../features/wallet/pages/add-bank-card-page.tsx'), {}, WALLET),
  route('/User/zhuanhua', () => import('../features/wallet/pages/convert-page.tsx'), {}, WALLET),
  route('/User/mybill', () => import('../features/wallet/pages/bill-list-page.tsx'), {}, WALLET),
  route('/User/billinfo', () => import('../features/wallet/pages/bill-detail-page.tsx'), {}, WALLET),
  // Delivery contracts: the trade tab, the contract list and one contract.
  route(
    '/Contract/index',
    () => import('../features/delivery/pages/contract-page.tsx'),
    { tabBar: true },
    DELIVERY,
  ),
  route('/Contract/ctbill', () => import('../features/delivery/pages/contract-list-page.tsx'), {}, DELIVERY),
  route(
    '/Contract/cbillinfo',
    () => import('../features/delivery/pages/contract-detail-page.tsx'),
    {},
    DELIVERY,
  ),
  // Spot trading: the trade page, the order list and one order (white, spec §2).
  route('/Trade/index', () => import('../features/spot/pages/trade-page.tsx'), { tabBar: true }, SPOT),
  route('/Trade/tradebill', () => import('../features/spot/pages/order-list-page.tsx'), {}, SPOT),
  route(
    '/Trade/billinfo',
    () => import('../features/spot/pages/order-detail-page.tsx'),
    { background: 'white' },
    SPOT,
  ),
  // Perpetual contracts: the order page and one order are the spec's (the order page with the tab
  // bar, as the spot trade page has it); the order history, funding payments and liquidation
  // records have no path there and take names in its style.
  route('/Trade/trans', () => import('../features/perpetual/pages/trade-page.tsx'), { tabBar: true }, PERP),
  route(
    '/Trade/transinfo',
    () => import('../features/perpetual/pages/order-detail-page.tsx'),
    { tabBar: true },
    PERP,
  ),
  route('/Trade/transbill', () => import('../features/perpetual/pages/order-list-page.tsx'), {}, PERP),
  route('/Trade/transfunding', () => import('../features/perpetual/pages/funding-page.tsx'), {}, PERP),
  route('/Trade/transliq', () => import('../features/perpetual/pages/liquidation-page.tsx'), {}, PERP),
  // Proof of reserves: a user-tab entry; the spec names no path, so it takes one in its style.
  route('/User/reserves', () => import('../features/reserves/pages/reserves-page.tsx'), {}, ['reserves']),
  // Invitations: the code, link and QR, and the team over three generations.
  route('/Index/tgcode', () => import('../features/invite/pages/invite-page.tsx'), {}, ['invite']),
  // Account services: notifications, real-name verification, the security centre's
  // pages (no paths in the spec: named in its style) and the forgotten password.
  route('/Index/notice', () => accountPages().then((m) => ({ default: m.NoticeListPage })), {}, ['notices']),
  route(
    '/Index/noticeinfo',
    () => accountPages().then((m) => ({ default: m.NoticeDetailPage })),
    { background: 'white' },
    ['notices'],
  ),
  route('/User/authrz', () => import('../features/account/pages/identity-page.tsx'), {}, ['identity']),
  route('/Index/totp', () => import('../features/account/pages/two-factor-page.tsx'), {}, ['twoFactor']),
  route('/Index/antiphishing', () => accountPages().then((m) => ({ default: m.AntiPhishingPage })), {}, [
    'antiPhishing',
  ]),
  route('/Index/sessions', () => accountPages().then((m) => ({ default: m.SessionsPage })), {}, ['sessions']),
  route('/Index/loginlog', () => accountPages().then((m) => ({ default: m.LoginLogPage })), {}, ['loginLog']),
  route('/Index/bindmobile', () => accountPages().then((m) => ({ default: m.BindMobilePage })), {}, [
    'bindMobile',
  ]),
  route('/Index/bindemail', () => import('../features/auth/pages/bind-email-page.tsx'), {}, ['emailCode']),
  route('/Login/forgot', () => import('../features/auth/pages/forgot-password-page.tsx'), { public: true }, [
    'forgot',
    'emailCode',
    'security',
  ]),
  route('/User/contactKehu', () => import('../features/support/pages/chat-page.tsx'), {}, ['support']),
  // Announcements, the help centre and the operator's pages. Spec §2 lists the public
  // paths and the white ones: these are neither (the API calls behind them need no session).
  route('/Index/gglist', () => contentPages().then((m) => ({ default: m.AnnouncementListPage })), {}, [
    'content',
  ]),
  route('/Index/gginfo', () => contentPages().then((m) => ({ default: m.AnnouncementPage })), {}, [
    'content',
  ]),
  route('/Index/help', () => contentPages().then((m) => ({ default: m.HelpListPage })), {}, ['content']),
  route('/Index/helpinfo', () => contentPages().then((m) => ({ default: m.HelpArticlePage })), {}, [
    'content',
  ]),
  route('/Index/aboutus', () => contentPages().then((m) => ({ default: m.AboutPage })), {}, ['content']),
  route('/Index/msb', () => contentPages().then((m) => ({ default: m.MsbPage })), {}, ['content']),
  // The legal pages are public: the register page links to them before anyone has a session.
  route('/Index/privacy', () => contentPages().then((m) => ({ default: m.PrivacyPage })), { public: true }, [
    'content',
  ]),
  route('/Index/terms', () => contentPages().then((m) => ({ default: m.TermsPage })), { public: true }, [
    'content',
  ]),
  route(
    '/Index/whitepaper',
    () => contentPages().then((m) => ({ default: m.WhitepaperPage })),
    { public: true },
    ['content'],
  ),
  // The launchpad: the projects (white, spec §2), one project, the user's records, and
  // the agent centre (no path in the spec: named in its style).
  route(
    '/Issue/index',
    () => launchpadPages().then((m) => ({ default: m.ProjectListPage })),
    { background: 'white' },
    LAUNCHPAD,
  ),
  route(
    '/Issue/details',
    () => launchpadPages().then((m) => ({ default: m.ProjectDetailPage })),
    {},
    LAUNCHPAD,
  ),
  route(
    '/Issue/issuelog',
    () => launchpadPages().then((m) => ({ default: m.RecordListPage })),
    {},
    LAUNCHPAD,
  ),
  route('/Agent/index', () => launchpadPages().then((m) => ({ default: m.AgentPage })), {}, LAUNCHPAD),
  // The mining market.
  route('/Orepool/index', () => miningPages().then((m) => ({ default: m.MarketPage })), {}, MINING),
  route('/Orepool/kjinfo', () => miningPages().then((m) => ({ default: m.MachinePage })), {}, MINING),
  route('/Orepool/Profitlist', () => miningPages().then((m) => ({ default: m.ProfitListPage })), {}, MINING),
  route('/Orepool/profitline', () => import('../features/mining/pages/profit-line-page.tsx'), {}, MINING),
];

const META_BY_PATH = new Map(APP_ROUTES.map((r) => [r.path.toLowerCase(), r.meta]));

/** Metadata of a path (case-insensitive, trailing slash ignored); unknown paths get the defaults. */
export function getRouteMeta(path: string): RouteMeta {
  const key = path.length > 1 ? path.replace(/\/+$/, '').toLowerCase() : path;
  return META_BY_PATH.get(key) ?? DEFAULT_META;
}

export function isPublicPath(path: string): boolean {
  return getRouteMeta(path).public;
}
