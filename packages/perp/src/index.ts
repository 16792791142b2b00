export * from './math.ts';
export * from './types.ts';
