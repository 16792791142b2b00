export * from './build.ts';
export * from './encoding.ts';
export * from './verify.ts';
