/**
 * Countdowns run on the server's clock: the delivery page reports `server_time`, and the gap to
 * the phone's clock is kept, so a phone set a minute wrong still counts down to the real expiry.
 */

/**
 * Milliseconds to add to the phone's clock to read the server's, from one answer: the server
 * read its clock somewhere between the request leaving and the answer arriving, so the middle
 * of the two is the best guess.
 */
export function clockOffset(serverTime: number, sentAt: number, receivedAt: number): number {
  return serverTime - Math.round((sentAt + receivedAt) / 2);
}

/**
 * Whole seconds until `expiresAt` at server time `now`, rounded up, never below 0 nor above the
 * contract's `period` (a clock guessed a few milliseconds late must not show 61 of 60 seconds).
 */
export function secondsLeft(expiresAt: number, now: number, period = Number.POSITIVE_INFINITY): number {
  return Math.min(period, Math.max(0, Math.ceil((expiresAt - now) / 1000)));
}

const pad = (value: number) => String(value).padStart(2, '0');

/** `mm:ss` under an hour, `h:mm:ss` under a day, else `Nd hh:mm:ss` (`Nd` as the locale writes it by `day`). */
export function formatCountdown(seconds: number, day: (days: number) => string = (d) => `${d}d`): string {
  const total = Math.max(0, Math.trunc(seconds));
  const days = Math.trunc(total / 86_400);
  const hours = Math.trunc((total % 86_400) / 3600);
  const minutes = Math.trunc((total % 3600) / 60);
  const rest = total % 60;
  if (days > 0) return `${day(days)} ${pad(hours)}:${pad(minutes)}:${pad(rest)}`;
  if (hours > 0) return `${hours}:${pad(minutes)}:${pad(rest)}`;
  return `${pad(minutes)}:${pad(rest)}`;
}
