export { PerpClearing, type PlaceInput } from './clearing.ts';
export * from './math.ts';
export { INSURANCE_USER } from './risk.ts';
export * from './state.ts';
export * from './types.ts';
