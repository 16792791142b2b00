import { type Envelope, RESULT_CODES, SESSION_INVALID_CODE, SUCCESS_CODE } from '@bourse/shared';
import type * as WireSchemas from '@bourse/shared/api';
import type { z } from 'zod';
import { getLangHeader, i18next } from '../shared/i18n/i18n.ts';
import { endSession, getToken, keepNoticeForNextLoad } from '../shared/storage.ts';
import { showToast } from '../shared/ui/toast.ts';

/** Base path of the API on the same origin (spec §7). */
export const API_BASE = '/apiv';
/** Request timeout (spec §9). */
export const API_TIMEOUT_MS = 60_000;

const SUCCESS_CODES = new Set([SUCCESS_CODE, 200]);
const TRANSPORT_LOGOUT = [
  { status: 401, code: 4010 },
  { status: 403, code: 4005 },
];

/**
 * Dispatched on `window` when the server refuses an action until the customer accepts the terms
 * of service in force (TERMS_NOT_ACCEPTED); the app answers with its accept sheet.
 */
export const TERMS_REQUIRED_EVENT = 'bourse:terms-required';

/** English server messages the spec maps to translated texts (spec §8). */
const TRANSLATED_SERVER_MESSAGES: Record<string, string> = {
  'Insufficient account balance': 'errors.insufficientBalance',
  'Cannot be less than the minimum subscription amount': 'errors.belowMinimumSubscription',
  'Subscription closed': 'errors.noSubscriptionProject',
};

/** A failed call. `code` is the envelope code, or -1 for network errors and timeouts. */
export class ApiError extends Error {
  readonly code: number;
  readonly status: number;
  constructor(code: number, message: string, status = 200) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = status;
  }
}

export interface HttpHooks {
  /** Whether the page at `path` needs no session (there a code 100 only shows its message). */
  isPublicPath: (path: string) => boolean;
  /** Called after a forced logout; the app reloads, as the spec's logout does (§4). */
  onSessionEnded: () => void;
}

let hooks: HttpHooks = {
  isPublicPath: () => false,
  onSessionEnded: () => {},
};

/** The app plugs in route knowledge here; the client itself knows no routes. */
export function configureHttp(next: HttpHooks): void {
  hooks = next;
}

export type Params = Record<string, string | number | boolean | null | undefined>;

/** The kinds of action the spec names a generic failure for (§8: submit, add, delete, trade). */
const ACTION_FAILED = {
  submit: 'errors.submitFailed',
  add: 'errors.addFailed',
  delete: 'errors.deleteFailed',
  trade: 'errors.tradeFailed',
} as const;

export interface RequestOptions {
  /** Do not show the error message as a Toast (the caller shows its own state). */
  silent?: boolean;
  signal?: AbortSignal;
  /**
   * What kind of action the call is. When it fails with no message of the server's own (no
   * answer, an answer that is not the API's envelope, or an envelope without `msg`), the customer
   * reads that this action failed ("Submit failed", "Trade failed"…) rather than a bare network
   * error; a server's message is always shown as it came.
   */
  action?: keyof typeof ACTION_FAILED;
}

function currentPath(): string {
  const hash = window.location.hash.replace(/^#/, '');
  return (hash.split('?')[0] || '/').toLowerCase();
}

/** Shows a server or client message as a Toast; English messages of spec §8 are translated. */
export function showMessage(message: string): void {
  const key = TRANSLATED_SERVER_MESSAGES[message.trim()];
  const content = key ? i18next.t(key) : message;
  if (content) showToast(content);
}

function toSearch(params: Params): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null) search.append(key, String(value));
  }
  return search.toString();
}

/**
 * The spec's logout (§4), forced by the server: forget the session, then let the app reload. The
 * server's message is kept across the reload so it still shows (unless `message` is null).
 */
function forceLogout(message: string | null): void {
  endSession();
  if (message) keepNoticeForNextLoad(message);
  hooks.onSessionEnded();
}

/**
 * Calls the API and resolves with the whole envelope on success (code 1000 or 200).
 * On failure the message is shown (unless `silent`) and the promise rejects with an ApiError.
 * GET sends params and `token` in the query string; other methods send them as form data.
 */
export async function request(
  method: 'GET' | 'POST',
  path: string,
  params: Params | FormData = {},
  options: RequestOptions = {},
): Promise<Envelope<unknown>> {
  const token = getToken();
  const controller = new AbortController();
  const timer = window.setTimeout(() => controller.abort(), API_TIMEOUT_MS);
  options.signal?.addEventListener('abort', () => controller.abort());

  let url = `${API_BASE}${path}`;
  const init: RequestInit = {
    method,
    headers: { Lang: getLangHeader(), Accept: 'application/json' },
    signal: controller.signal,
  };
  if (params instanceof FormData) {
    // why: multipart (uploads); the browser sets the content type with its boundary. The token
    // goes first, so a streaming reader knows the session before the file arrives.
    const form = new FormData();
    if (token) form.append('token', token);
    for (const [key, value] of params) if (key !== 'token') form.append(key, value);
    init.body = form;
  } else if (method === 'GET') {
    const search = toSearch(token ? { ...params, token } : params);
    if (search) url += `?${search}`;
  } else {
    const payload: Params = token ? { ...params, token } : { ...params };
    init.headers = { ...init.headers, 'Content-Type': 'application/x-www-form-urlencoded;charset=UTF-8' };
    init.body = toSearch(payload);
  }

  let response: Response;
  let body: Envelope<unknown> | null = null;
  try {
    response = await fetch(url, init);
    body = (await response.json().catch(() => null)) as Envelope<unknown> | null;
  } catch (cause) {
    if (options.signal?.aborted) throw cause;
    const message = i18next.t(options.action ? ACTION_FAILED[options.action] : 'common.networkError');
    if (!options.silent) showMessage(message);
    throw new ApiError(-1, message, 0);
  } finally {
    window.clearTimeout(timer);
  }

  if (TRANSPORT_LOGOUT.some((rule) => rule.status === response.status && rule.code === body?.code)) {
    const message = body?.msg || i18next.t('common.sessionExpired');
    // why: without a token there is no session to end, and a reload would only repeat the call.
    if (token) forceLogout(options.silent ? null : message);
    else if (!options.silent) showMessage(message);
    throw new ApiError(body?.code ?? response.status, message, response.status);
  }
  if (!body || typeof body.code !== 'number') {
    const message = i18next.t(options.action ? ACTION_FAILED[options.action] : 'common.networkError');
    if (!options.silent) showMessage(message);
    throw new ApiError(-1, message, response.status);
  }
  if (SUCCESS_CODES.has(body.code)) return body;
  if (!body.msg && options.action) body = { ...body, msg: i18next.t(ACTION_FAILED[options.action]) };

  // why: spec §4 — code 100 logs out and shows the message, except on public pages where it
  // only shows the message.
  if (body.code === SESSION_INVALID_CODE && token && !hooks.isPublicPath(currentPath())) {
    forceLogout(body.msg);
  } else if (body.code === RESULT_CODES.TERMS_NOT_ACCEPTED.code) {
    // why: the sheet that opens says what the message would, and offers the way on.
    window.dispatchEvent(new Event(TERMS_REQUIRED_EVENT));
  } else if (!options.silent || body.code === SESSION_INVALID_CODE) {
    showMessage(body.msg);
  }
  throw new ApiError(body.code, body.msg, response.status);
}

/** The wire schemas of `@bourse/shared/api`, by name. Only its types are imported here. */
type Wire = typeof WireSchemas;

/** The name of one of the wire schemas `@bourse/shared/api` exports (`'UserInfoAnswer'`, `'NoData'`…). */
export type SchemaName = { [Name in keyof Wire]: Wire[Name] extends z.ZodType ? Name : never }[keyof Wire];

/** The answer a schema describes, as it arrives: `z.input` (see below). */
export type Answer<Name extends SchemaName> = z.input<Wire[Name]>;

/**
 * The fetch helpers take the answer's schema from `@bourse/shared/api`, never a type parameter:
 * `get(path, params, 'UserInfoAnswer')` resolves with the envelope of that schema's answer, so a
 * page's data is typed once, by the schema the server answers with.
 *
 * The schema goes by its name, a type-checked key of `@bourse/shared/api` (a typo or a schema that
 * is not there does not compile). why: the schema modules build every zod schema when they load;
 * imported as values they would join the first page load, and build their schemas before
 * `installZodConfig` turns zod's `new Function` parsers off, which the Content-Security-Policy
 * reports. Named, the calls cost the bundle nothing, and zod stays out of pages without a form.
 *
 * The answer is `z.input` of the schema: the server encodes its answer through the same schema
 * (see `@bourse/shared/api`), so the JSON is already in that shape, and the helpers hand it on as it
 * arrived — no transform runs on the client, in development or in production.
 *
 * The answer is checked against its schema in development only (`import.meta.env.DEV`: `vite dev`
 * and the unit tests): the schemas load on the side and a mismatch is reported on the console with
 * the path and zod's issues; the answer is never held up or refused, so a drifted schema shows while
 * working on a page without breaking one. Production builds skip the check (why: it would bring the
 * schemas and zod into every page, and parse the tickers, depth and candles polled several times a
 * second only to re-prove what the server's encoding already proved).
 */
function checked<Name extends SchemaName>(
  path: string,
  schema: Name,
  body: Envelope<unknown>,
): Envelope<Answer<Name>> {
  if (import.meta.env.DEV) {
    void import('@bourse/shared/api').then((wire) => {
      const result = (wire[schema] as z.ZodType).safeParse(body.data);
      if (!result.success)
        console.error(`API answer of ${path} does not match ${schema}`, result.error.issues);
    });
  }
  return body as Envelope<Answer<Name>>;
}

/** `GET path?params`: resolves with the envelope whose `data` the named schema describes. */
export async function get<Name extends SchemaName>(
  path: string,
  params: Params | undefined,
  schema: Name,
  options?: RequestOptions,
): Promise<Envelope<Answer<Name>>> {
  return checked(path, schema, await request('GET', path, params, options));
}

/** `POST path` with params as form data: resolves with the envelope whose `data` the named schema describes. */
export async function post<Name extends SchemaName>(
  path: string,
  params: Params | undefined,
  schema: Name,
  options?: RequestOptions,
): Promise<Envelope<Answer<Name>>> {
  return checked(path, schema, await request('POST', path, params, options));
}

/** POST as multipart form data (file uploads); `token` is added to the form. */
export async function postMultipart<Name extends SchemaName>(
  path: string,
  form: FormData,
  schema: Name,
  options?: RequestOptions,
): Promise<Envelope<Answer<Name>>> {
  return checked(path, schema, await request('POST', path, form, options));
}
