import type { Browser, BrowserContext } from 'playwright-core';

export const ROOT: string;
export const CHROME_PATH: string;
export const CHROME_FLAGS: readonly string[];
export function launchChromium(): Promise<Browser>;
export function newPhoneContext(browser: Browser, options?: { locale?: string }): Promise<BrowserContext>;
export function freePort(): Promise<number>;

export interface Platform {
  url: string;
  dataDir: string;
  stop(): Promise<void>;
}
export function startPlatform(options?: {
  env?: Record<string, string>;
  timeoutMs?: number;
  stdout?: 'inherit' | 'ignore';
  ownGroup?: boolean;
}): Promise<Platform>;
