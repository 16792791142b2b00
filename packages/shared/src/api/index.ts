export * from './auth.ts';
export * from './config.ts';
export * from './fields.ts';
export * from './markets.ts';
export * from './wallet.ts';
export * from './delivery.ts';
