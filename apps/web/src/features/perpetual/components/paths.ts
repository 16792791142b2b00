/**
 * The perpetual pages' paths. `/Trade/trans` and `/Trade/transinfo` are the spec's; the order
 * history, funding and liquidation pages have none there and take names in its style.
 */
export const PERP_PATHS = {
  trade: '/Trade/trans',
  orderDetail: '/Trade/transinfo',
  orderList: '/Trade/transbill',
  funding: '/Trade/transfunding',
  liquidations: '/Trade/transliq',
} as const;
