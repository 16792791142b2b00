import type { ComponentProps } from 'react';
import { lazySheet } from '../../../shared/ui/lazy-sheet.tsx';
import type { TwoFactorSheet as Sheet } from '../../../shared/ui/two-factor-sheet.tsx';

const twoFactorSheet = lazySheet<ComponentProps<typeof Sheet>>(() =>
  import('../../../shared/ui/two-factor-sheet.tsx').then((m) => m.TwoFactorSheet),
);

/** The shared second-factor sheet, its code loaded when it first opens (see shared/ui/lazy-sheet.tsx). */
export const TwoFactorSheet = twoFactorSheet.Sheet;
export const preloadTwoFactorSheet = twoFactorSheet.preload;
