export * from './admin.ts';
export * from './admin-delivery.ts';
export * from './auth.ts';
export * from './config.ts';
export * from './delivery.ts';
export * from './fields.ts';
export * from './markets.ts';
export * from './wallet.ts';
