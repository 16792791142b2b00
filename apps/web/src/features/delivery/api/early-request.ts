import { hasToken } from '../../../shared/storage.ts';

/** How long an answer fetched ahead stays good enough for the page's first render. */
const EARLY_FRESH_MS = 10_000;

export interface EarlyRequest<T> {
  /** Sends the request now, when the page's code loads (with a session only). */
  start: () => void;
  /** The answer fetched ahead, when there is a fresh one; otherwise the request, sent now. */
  take: (signal?: AbortSignal) => Promise<T>;
}

/**
 * A page's first request, sent when the page's code loads rather than when React first renders
 * it: the render waits for the page's texts and the app shell, and the answer arrives meanwhile.
 * The first query that asks takes the answer; a failed early request is forgotten and the query
 * asks again itself, so errors, logouts and the terms sheet happen as they always did.
 */
export function earlyRequest<T>(request: (signal?: AbortSignal) => Promise<T>): EarlyRequest<T> {
  let early: { at: number; answer: Promise<{ value: T } | null> } | null = null;
  return {
    start() {
      if (early || !hasToken()) return;
      early = {
        at: Date.now(),
        answer: request().then(
          (value) => ({ value }),
          () => null,
        ),
      };
    },
    async take(signal) {
      const pending = early;
      early = null;
      if (pending && Date.now() - pending.at < EARLY_FRESH_MS) {
        const answer = await pending.answer;
        if (answer) return answer.value;
      }
      return request(signal);
    },
  };
}
