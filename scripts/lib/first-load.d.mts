import type { Browser } from 'playwright-core';

export interface LoadedFile {
  /** URL path, as in `/assets/index-abc.js`. */
  path: string;
  /** Playwright's resource type (`script`, `stylesheet`). */
  type: string;
  raw: number;
  gzip: number;
}
export const FIRST_SCREEN: string;
export const FIRST_LOAD_BUDGET_KB: number;
export function measureFirstLoad(
  browser: Browser,
  base: string,
): Promise<{ files: LoadedFile[]; totalKb: number }>;
