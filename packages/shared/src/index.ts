// why: the API schemas (zod) live behind '@bourse/shared/api' so the web app's first load does not carry zod.

export * from './countries.ts';
export * from './document-number.ts';
export * from './errors.ts';
export * from './format.ts';
export * from './markets.ts';
