import { lazySheet } from '../../../shared/ui/lazy-sheet.tsx';

const confirmSheet = lazySheet(() => import('./confirm-sheet-body.tsx').then((m) => m.ConfirmSheet));

/**
 * The bottom sheet that confirms a money-moving action (see confirm-sheet-body.tsx); its code
 * loads when it first opens, or at `preloadConfirmSheet`.
 */
export const ConfirmSheet = confirmSheet.Sheet;
export const preloadConfirmSheet = confirmSheet.preload;
