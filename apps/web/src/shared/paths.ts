/**
 * The spec's paths that pages link to. They are the URL contract, so they keep the spec's
 * spelling; the route table (app/routes.tsx) maps each to its page.
 */
export const PATHS = {
  home: '/',
  markets: '/Trade/tradelist',
  trade: '/Contract/index',
  /** Spot trading: one market's page (`?symbol=`), the user's orders and one order (spec §2). */
  spotTrade: '/Trade/index',
  orderList: '/Trade/tradebill',
  /** Perpetual contracts: order placement (`?symbol=`; spec §2). */
  perpTrade: '/Trade/trans',
  orderDetail: '/Trade/billinfo',
  /** Delivery contracts: the open and settled lists, and one contract (spec §2). */
  contractList: '/Contract/ctbill',
  contractDetail: '/Contract/cbillinfo',
  user: '/Index/uoption',
  login: '/login',
  register: '/register',
  language: '/Login/setlang',
  notFound: '/404',
  /** The security centre: the spec shows no path for it, so it takes one in the spec's style. */
  security: '/Index/security',
  /** Spec §2: "Set login password". */
  setPassword: '/Index/spwd',
  changePassword: '/Index/respwd',
  withdrawPassword: '/Index/withdrawpwd',
  /** Installing the app (a label in the spec, no path: named in its style). */
  appDownload: '/Index/download',
  /** The assets tab (spec §2: User/index, shown with the tab bar). */
  assets: '/User/index',
  myWallet: '/User/myWallte',
  coinInfo: '/User/coininfo',
  depositCoins: '/User/czcoin',
  deposit: '/User/czpage',
  depositList: '/User/czlist',
  depositDetail: '/User/czinfo',
  /** The withdrawal entry, behind the spec's guard (withdrawal password, then an address). */
  withdraw: '/User/txcoin',
  withdrawForm: '/User/txpage',
  withdrawList: '/User/txlist',
  withdrawDetail: '/User/txinfo',
  addressList: '/User/addresslist',
  addAddress: '/User/plusaddress',
  /** Bank cards, conversion and bills: labels in the spec, no paths; named in its style. */
  bankCards: '/User/banklist',
  addBankCard: '/User/addbank',
  convert: '/User/zhuanhua',
  bills: '/User/mybill',
  billDetail: '/User/billinfo',
  /** The launchpad (spec §2: Issue/index, Issue/details, Issue/issuelog). */
  issueList: '/Issue/index',
  issueDetail: '/Issue/details',
  issueLog: '/Issue/issuelog',
  /** The agent centre: no path in the spec; named in its style. */
  agent: '/Agent/index',
  /** The mining market (spec §2: Orepool/index, kjinfo, Profitlist, profitline). */
  mining: '/Orepool/index',
  miningDetail: '/Orepool/kjinfo',
  miningProfits: '/Orepool/Profitlist',
  miningCurve: '/Orepool/profitline',
  /** Invitations (spec §2: /Index/tgcode). */
  invite: '/Index/tgcode',
  /** Proof of reserves: the snapshots and "verify my balance" (no path in the spec). */
  reserves: '/User/reserves',
  /** Notifications and one notification (spec §2). */
  notices: '/Index/notice',
  noticeDetail: '/Index/noticeinfo',
  /** Real-name verification (spec §2). */
  identity: '/User/authrz',
  /** The security centre's pages: labels in the spec, no paths; named in its style. */
  twoFactor: '/Index/totp',
  antiPhishing: '/Index/antiphishing',
  sessions: '/Index/sessions',
  loginLog: '/Index/loginlog',
  bindEmail: '/Index/bindemail',
  bindMobile: '/Index/bindmobile',
  /** Forgotten password: e-mail code after the graphic code (public). */
  forgotPassword: '/Login/forgot',
  /** Announcements and one announcement; about us and the MSB certificate (spec §2). */
  announcements: '/Index/gglist',
  announcement: '/Index/gginfo',
  aboutUs: '/Index/aboutus',
  msb: '/Index/msb',
  /** The privacy policy, terms of service and whitepaper (spec §1; no paths there: named in its style). Public. */
  privacy: '/Index/privacy',
  terms: '/Index/terms',
  whitepaper: '/Index/whitepaper',
  /** The help centre and one article (in the spec's feature list, no path: named in its style). */
  help: '/Index/help',
  helpArticle: '/Index/helpinfo',
} as const;

/** A path with its query, e.g. `withQuery(PATHS.deposit, { coin: 'USDT' })` → `/User/czpage?coin=USDT`. */
export function withQuery(path: string, query: Record<string, string | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) search.set(key, value);
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}
