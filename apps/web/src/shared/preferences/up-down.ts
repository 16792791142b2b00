import type { Locale } from '@bourse/i18n';
import { useSyncExternalStore } from 'react';
import { getCurrentLocale, onLocaleChange } from '../i18n/i18n.ts';
import { getStoredUpDown, setStoredUpDown } from '../storage.ts';

/** Which colour means "up": green (most markets) or red (Chinese-speaking markets). */
export type UpDownMode = 'green-up' | 'red-up';

const RED_UP_LOCALES: readonly Locale[] = ['zh-CN', 'zh-TW'];

export function defaultUpDownFor(locale: Locale): UpDownMode {
  return RED_UP_LOCALES.includes(locale) ? 'red-up' : 'green-up';
}

/** The user's choice if they made one, else the default of the current locale. */
export function getUpDownMode(): UpDownMode {
  const stored = getStoredUpDown();
  if (stored === 'green-up' || stored === 'red-up') return stored;
  return defaultUpDownFor(getCurrentLocale());
}

const listeners = new Set<() => void>();

function apply(): void {
  // why: colours are CSS variables keyed on this attribute, so every price re-colours at once.
  document.documentElement.dataset.updown = getUpDownMode();
  for (const listener of listeners) listener();
}

/** Sets the attribute now and keeps it in step with language switches. Call once at start. */
export function installUpDownMode(): void {
  apply();
  onLocaleChange(apply);
}

/** Stores the user's choice; `null` goes back to the locale's default. */
export function setUpDownMode(mode: UpDownMode | null): void {
  setStoredUpDown(mode);
  apply();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useUpDownMode(): UpDownMode {
  return useSyncExternalStore(subscribe, getUpDownMode, getUpDownMode);
}
