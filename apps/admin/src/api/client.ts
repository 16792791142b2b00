/**
 * The `/admin-api` client: JSON in, `{code, msg, data}` out, the staff token as a Bearer header.
 * Only the operation files of `features/<domain>/api/` call it; pages call those.
 */
import type { z } from 'zod';

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

/**
 * Sends one request and checks its answer with `schema`, the answer schema of
 * `@bourse/shared/api` the server declares for that route: the result is typed from the schema
 * (`z.infer`), never cast. It parses (throws) rather than safe-parses: an answer that does not
 * match is a bug between the server and the shared schema, and a page showing a half-understood
 * answer (a missing amount read as empty, a renamed status never matching) would mislead the
 * staff member acting on it, so it fails like any other failed request (the page's error path).
 * Answers the page does not read are checked with `z.unknown()`.
 *
 * `params`: GET sends them as a query string (each value as text), POST as a JSON body (lists
 * and objects included), or as multipart when they are a `FormData` (a file upload); absent and
 * empty values are left out. Their types are the request
 * schemas' (`z.input`), checked by each operation's signature.
 */
export async function api<Schema extends z.ZodType>(
  method: 'GET' | 'POST',
  path: string,
  params: object | FormData | undefined,
  schema: Schema,
): Promise<z.infer<Schema>> {
  const headers: Record<string, string> = { Lang: language.toLowerCase() };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  let url = `/admin-api${path}`;
  let body: string | FormData | undefined;
  const defined = Object.fromEntries(
    Object.entries(params instanceof FormData ? {} : (params ?? {})).filter(
      ([, v]) => v !== undefined && v !== '',
    ),
  );
  if (params instanceof FormData) {
    // why: a file upload goes as multipart; the browser writes its content type with the boundary.
    body = params;
  } else if (method === 'GET') {
    const query = new URLSearchParams(Object.entries(defined).map(([k, v]) => [k, String(v)])).toString();
    if (query) url += `?${query}`;
  } else {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(defined);
  }
  const response = await fetch(url, { method, headers, body });
  const envelope = (await response.json()) as { code: number; msg: string; data: unknown };
  if (envelope.code === SESSION_INVALID) {
    setToken(null);
    for (const listener of sessionEnded) listener();
  }
  if (envelope.code !== 1000) throw new ApiError(envelope.code, envelope.msg);
  const parsed = schema.safeParse(envelope.data);
  if (!parsed.success) {
    throw new ApiError(envelope.code, `${method} ${path}: unexpected answer (${parsed.error.message})`);
  }
  return parsed.data;
}
