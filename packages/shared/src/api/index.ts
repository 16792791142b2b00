export * from './auth.ts';
export * from './fields.ts';
