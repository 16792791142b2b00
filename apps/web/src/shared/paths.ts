/**
 * The spec's paths that pages link to. They are the URL contract, so they keep the spec's
 * spelling; the route table (app/routes.tsx) maps each to its page.
 */
export const PATHS = {
  home: '/',
  markets: '/Trade/tradelist',
  trade: '/Contract/index',
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
  withdraw: '/User/txcoin',
  addressList: '/User/addresslist',
} as const;
