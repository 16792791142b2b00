import {
  type CancelCommand,
  type MarketSpec,
  type PlaceCommand,
  type PriceUpdateCommand,
  type ReduceCommand,
  ResultCode,
  type ResultCodeName,
} from './types.ts';

/** Highest price a market may accept, in ticks (a resting order keeps its price in 32 bits). */
export const MAX_PRICE = Number.MAX_SAFE_INTEGER;

const CODE_NAMES = new Map<number, ResultCodeName>(
  (Object.keys(ResultCode) as ResultCodeName[]).map((name) => [ResultCode[name], name]),
);

/** The name of a result code, e.g. `REJECT_POST_ONLY`. */
export function getResultCodeName(code: ResultCode): ResultCodeName {
  return CODE_NAMES.get(code) ?? 'REJECT_INVALID_COMMAND';
}

/** The stage that decided a result code (see `ResultCode`). */
export function getResultStage(code: ResultCode): 'accepted' | 'validation' | 'state' | 'matching' {
  if (code === 0) return 'accepted';
  if (code < 2000) return 'validation';
  if (code < 3000) return 'state';
  return 'matching';
}

function isPositiveInt(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) > 0;
}

/**
 * Throws when a market spec is unusable (a programming error, not a business rejection).
 * @returns the same spec, for chaining.
 */
export function validateMarketSpec(spec: MarketSpec): MarketSpec {
  const fail = (why: string): never => {
    throw new Error(`invalid market spec ${String(spec?.symbol)}: ${why}`);
  };
  if (typeof spec.symbol !== 'string' || spec.symbol.length === 0) fail('symbol');
  if (!isPositiveInt(spec.tickSize)) fail('tickSize must be a positive safe integer');
  if (!isPositiveInt(spec.lotSize)) fail('lotSize must be a positive safe integer');
  if (!isPositiveInt(spec.minPrice)) fail('minPrice must be a positive safe integer');
  if (!isPositiveInt(spec.maxPrice) || spec.maxPrice < spec.minPrice || spec.maxPrice > MAX_PRICE) {
    fail('maxPrice must be a safe integer in [minPrice, 2^53)');
  }
  if (!isPositiveInt(spec.maxQty)) fail('maxQty must be a positive safe integer');
  const stp = spec.selfTradePrevention;
  if (stp !== 'none' && stp !== 'cancel-newest' && stp !== 'cancel-oldest' && stp !== 'cancel-both') {
    fail('selfTradePrevention');
  }
  if (spec.triggerSource !== 'trade' && spec.triggerSource !== 'external') fail('triggerSource');
  return spec;
}

/**
 * Stage-1 checks of a place command against the market spec (no book state read).
 * @returns `ACCEPTED` or the first failing validation code.
 */
export function validatePlace(spec: MarketSpec, command: PlaceCommand): ResultCode {
  return validatePlaceFields(
    spec,
    command.orderId,
    command.userId,
    command.side,
    command.orderType,
    command.tif,
    command.price ?? 0,
    command.qty ?? 0,
    command.quoteAmount ?? 0,
    command.triggerPrice ?? 0,
    command.triggerDirection,
  );
}

/**
 * `validatePlace` on fields already read from the command, absent numbers as 0 — so a caller on the
 * hot path reads each field once.
 */
export function validatePlaceFields(
  spec: MarketSpec,
  orderId: number,
  userId: number,
  side: string,
  orderType: string,
  tif: string | undefined,
  price: number,
  qty: number,
  quoteAmount: number,
  triggerPrice: number,
  triggerDirection: string | undefined,
): ResultCode {
  if (!isPositiveInt(orderId) || !isPositiveInt(userId)) return ResultCode.REJECT_INVALID_ID;
  if (side !== 'buy' && side !== 'sell') return ResultCode.REJECT_INVALID_SIDE;
  if (orderType === 'limit') {
    if (tif !== undefined && tif !== 'gtc' && tif !== 'ioc' && tif !== 'fok' && tif !== 'post-only') {
      return ResultCode.REJECT_INVALID_TIME_IN_FORCE;
    }
    if (!isPositiveInt(price)) return ResultCode.REJECT_INVALID_PRICE;
    if (price < spec.minPrice || price > spec.maxPrice) return ResultCode.REJECT_PRICE_OUT_OF_BAND;
    if (!isPositiveInt(qty) || qty > spec.maxQty) return ResultCode.REJECT_INVALID_QTY;
    // why: then every fill's quote (a maker's price × at most its quantity) is a safe integer,
    // whatever the band and maxQty.
    if (price * qty > Number.MAX_SAFE_INTEGER) return ResultCode.REJECT_INVALID_QTY;
    if (quoteAmount !== 0) return ResultCode.REJECT_INVALID_QUOTE_AMOUNT;
  } else if (orderType === 'market') {
    if (tif !== undefined && tif !== 'ioc') return ResultCode.REJECT_INVALID_TIME_IN_FORCE;
    if (price !== 0) return ResultCode.REJECT_INVALID_PRICE;
    if (quoteAmount === 0) {
      if (!isPositiveInt(qty) || qty > spec.maxQty) return ResultCode.REJECT_INVALID_QTY;
    } else {
      // why: only a buy can be sized by what it spends; a sell is sized by what it sells.
      if (side !== 'buy' || qty !== 0) return ResultCode.REJECT_INVALID_QUOTE_AMOUNT;
      if (!isPositiveInt(quoteAmount)) return ResultCode.REJECT_INVALID_QUOTE_AMOUNT;
    }
  } else {
    return ResultCode.REJECT_INVALID_ORDER_TYPE;
  }
  if (triggerPrice !== 0 || triggerDirection !== undefined) {
    if (!isPositiveInt(triggerPrice) || triggerPrice < spec.minPrice || triggerPrice > spec.maxPrice) {
      return ResultCode.REJECT_INVALID_TRIGGER;
    }
    if (triggerDirection !== 'up' && triggerDirection !== 'down') return ResultCode.REJECT_INVALID_TRIGGER;
  }
  return ResultCode.ACCEPTED;
}

/** Stage-1 checks of a cancel command. */
export function validateCancel(command: CancelCommand): ResultCode {
  if (!isPositiveInt(command.orderId) || !isPositiveInt(command.userId)) return ResultCode.REJECT_INVALID_ID;
  return ResultCode.ACCEPTED;
}

/** Stage-1 checks of a reduce command. */
export function validateReduce(command: ReduceCommand): ResultCode {
  if (!isPositiveInt(command.orderId) || !isPositiveInt(command.userId)) return ResultCode.REJECT_INVALID_ID;
  if (!isPositiveInt(command.qty)) return ResultCode.REJECT_INVALID_QTY;
  return ResultCode.ACCEPTED;
}

/** Stage-1 checks of a price update. */
export function validatePriceUpdate(command: PriceUpdateCommand): ResultCode {
  if (!isPositiveInt(command.price)) return ResultCode.REJECT_INVALID_PRICE;
  return ResultCode.ACCEPTED;
}

/** Whether `seq` may follow `lastSeq` (strictly increasing safe integers). */
export function isNextSequence(seq: number, lastSeq: number): boolean {
  return Number.isSafeInteger(seq) && seq > lastSeq;
}
