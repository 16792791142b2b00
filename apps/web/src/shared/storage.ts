/**
 * Everything the app keeps in the browser. Keys are part of the contract (spec §1, §3, §4):
 * `token`, `uid`, `lang`, `invit`; `updown` is our own price-colour preference.
 */
export const STORAGE_KEYS = {
  token: 'token',
  uid: 'uid',
  lang: 'lang',
  invite: 'invit',
  upDown: 'updown',
  favouriteMarkets: 'favmarkets',
} as const;

function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    // why: storage can throw in private modes; the app then behaves as anonymous.
    return null;
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // ignore: see read()
  }
}

type Listener = () => void;
const sessionListeners = new Set<Listener>();

function notifySession(): void {
  for (const listener of sessionListeners) listener();
}

/** Subscribes to token changes (login, logout, forced logout). Returns the unsubscribe function. */
export function subscribeSession(listener: Listener): () => void {
  sessionListeners.add(listener);
  return () => sessionListeners.delete(listener);
}

export function getToken(): string | null {
  return read(STORAGE_KEYS.token) || null;
}

export function hasToken(): boolean {
  return getToken() !== null;
}

/** Stores the session of a successful login. */
export function startSession(session: { token: string; uid: number | string }): void {
  write(STORAGE_KEYS.token, session.token);
  write(STORAGE_KEYS.uid, String(session.uid));
  notifySession();
}

/** Forgets the session: removes token and user id and clears session storage (spec §4). */
export function endSession(): void {
  write(STORAGE_KEYS.token, null);
  write(STORAGE_KEYS.uid, null);
  try {
    window.sessionStorage.clear();
  } catch {
    // ignore: see read()
  }
  notifySession();
}

/** sessionStorage key of a message to show after the next page load (set by a forced logout). */
const NOTICE_KEY = 'notice';

/**
 * Keeps `message` for the page load that follows a reload, e.g. the server's reason for a forced
 * logout, which would otherwise vanish with the page. Call after `endSession()`, which clears it.
 */
export function keepNoticeForNextLoad(message: string): void {
  try {
    window.sessionStorage.setItem(NOTICE_KEY, message);
  } catch {
    // ignore: see read()
  }
}

/** The message kept by `keepNoticeForNextLoad`, removed as it is read; null when there is none. */
export function takeNoticeFromLastLoad(): string | null {
  try {
    const message = window.sessionStorage.getItem(NOTICE_KEY);
    window.sessionStorage.removeItem(NOTICE_KEY);
    return message || null;
  } catch {
    return null;
  }
}

export function getStoredLanguage(): string | null {
  return read(STORAGE_KEYS.lang);
}

export function setStoredLanguage(locale: string): void {
  write(STORAGE_KEYS.lang, locale);
}

export function getInviteCode(): string {
  return read(STORAGE_KEYS.invite) ?? '';
}

/**
 * Keeps the invitation code of the entry URL (`/?code=AB12#/register`, or `#/register?code=AB12`)
 * so the register form can fill it in later, even after the visitor wandered around.
 */
export function captureInviteCode(location: Pick<Location, 'search' | 'hash'>): void {
  const fromSearch = new URLSearchParams(location.search).get('code');
  const hashQuery = location.hash.includes('?') ? location.hash.slice(location.hash.indexOf('?')) : '';
  const fromHash = new URLSearchParams(hashQuery).get('code');
  const code = (fromSearch ?? fromHash ?? '').trim();
  if (code) write(STORAGE_KEYS.invite, code);
}

export function getStoredUpDown(): string | null {
  return read(STORAGE_KEYS.upDown);
}

export function setStoredUpDown(value: string | null): void {
  write(STORAGE_KEYS.upDown, value);
}

/** Symbols of the markets the user starred on the market list, in the order they were starred. */
export function getFavouriteMarkets(): string[] {
  const raw = read(STORAGE_KEYS.favouriteMarkets);
  if (!raw) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? parsed.filter((item): item is string => typeof item === 'string') : [];
  } catch {
    return [];
  }
}

export function setFavouriteMarkets(symbols: readonly string[]): void {
  write(STORAGE_KEYS.favouriteMarkets, symbols.length > 0 ? JSON.stringify(symbols) : null);
}
