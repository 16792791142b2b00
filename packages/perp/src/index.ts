export { INSURANCE_USER, PerpClearing, type PlaceInput } from './clearing.ts';
export * from './math.ts';
export * from './state.ts';
export * from './types.ts';
