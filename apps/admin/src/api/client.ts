/** The `/admin-api` client: JSON in, `{code, msg, data}` out, the staff token as a Bearer header. */

const TOKEN_KEY = 'bourse.admin.token';
export const SESSION_INVALID = 100;

export class ApiError extends Error {
  readonly code: number;
  constructor(code: number, message: string) {
    super(message);
    this.code = code;
  }
}

export function getToken(): string | null {
  return sessionStorage.getItem(TOKEN_KEY);
}

export function setToken(token: string | null): void {
  if (token) sessionStorage.setItem(TOKEN_KEY, token);
  else sessionStorage.removeItem(TOKEN_KEY);
}

let language = 'en-US';
/** The language the server answers messages in. */
export function setApiLanguage(lang: string): void {
  language = lang;
}

/** Listeners told when the session ends (code 100), so the app returns to the login page. */
const sessionEnded = new Set<() => void>();
export function onSessionEnded(listener: () => void): () => void {
  sessionEnded.add(listener);
  return () => sessionEnded.delete(listener);
}

/** A parameter: GET sends the flat ones as a query string; POST sends any JSON (lists included). */
type Param =
  | string
  | number
  | boolean
  | null
  | undefined
  | readonly Param[]
  | { readonly [key: string]: Param };

export async function api<T>(
  method: 'GET' | 'POST',
  path: string,
  params?: Record<string, Param>,
): Promise<T> {
  const headers: Record<string, string> = { Lang: language.toLowerCase() };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  let url = `/admin-api${path}`;
  let body: string | undefined;
  const defined = Object.fromEntries(
    Object.entries(params ?? {}).filter(([, v]) => v !== undefined && v !== ''),
  ) as Record<string, Param>;
  if (method === 'GET') {
    const query = new URLSearchParams(Object.entries(defined).map(([k, v]) => [k, String(v)])).toString();
    if (query) url += `?${query}`;
  } else {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(defined);
  }
  const response = await fetch(url, { method, headers, body });
  const envelope = (await response.json()) as { code: number; msg: string; data: T };
  if (envelope.code === SESSION_INVALID) {
    setToken(null);
    for (const listener of sessionEnded) listener();
  }
  if (envelope.code !== 1000) throw new ApiError(envelope.code, envelope.msg);
  return envelope.data;
}
