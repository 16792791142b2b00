/** Spec §9: the pause between a success message and the next page. */
export const NAVIGATE_DELAY_MS = 1000;

export const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
