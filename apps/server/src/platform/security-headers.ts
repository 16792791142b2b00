import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

export interface SecurityHeadersOptions {
  /**
   * Folder of the built customer app. The inline `<script>` and `<style>` blocks of its
   * index.html are allowed by their hashes, so no `'unsafe-inline'` is needed.
   */
  webDist: string;
  /** Path of the API documentation (swagger-ui), which gets a policy of its own; `/docs` by default. */
  docsPrefix?: string;
  /**
   * Standalone pages of the built app (URL path → file) with inline code of their own, e.g. the
   * proof-of-reserves verifier: each gets the app's policy with its own inline hashes.
   */
  pages?: Record<string, string>;
}

/** How long browsers remember to use HTTPS only (one year), sent only on answers over TLS. */
export const HSTS_VALUE = 'max-age=31536000; includeSubDomains';

type Directives = Record<string, string[]>;

/** The CSP hash sources (`'sha256-…'`) of the inline scripts and styles of an HTML page. */
export function hashInlineBlocks(html: string): { scripts: string[]; styles: string[] } {
  const hash = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
  const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)]
    .filter(([, attributes, body]) => !/\bsrc\s*=/i.test(attributes) && body.trim() !== '')
    .map(([, , body]) => hash(body));
  const styles = [...html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/gi)].map(([, body]) => hash(body));
  return { scripts, styles };
}

/**
 * The customer app's policy: everything from this origin only, inline code only by hash, no
 * framing, no plugins. `connect-src 'self'` covers the same-origin `/ws` socket (CSP 3).
 */
export function appDirectives(inline: { scripts: string[]; styles: string[] }): Directives {
  return {
    'default-src': ["'self'"],
    'base-uri': ["'self'"],
    'connect-src': ["'self'"],
    'font-src': ["'self'", 'data:'],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
    // why: graphic codes arrive as data: URLs.
    'img-src': ["'self'", 'data:'],
    'manifest-src': ["'self'"],
    'object-src': ["'none'"],
    'script-src': ["'self'", ...inline.scripts],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'", ...inline.styles],
  };
}

/**
 * swagger-ui's policy, on its routes only: its React views set inline style attributes and draw
 * data: images; scripts stay same-origin files.
 */
export const DOCS_DIRECTIVES: Directives = {
  'default-src': ["'self'"],
  'base-uri': ["'self'"],
  'connect-src': ["'self'"],
  'font-src': ["'self'", 'data:'],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
  'img-src': ["'self'", 'data:'],
  'object-src': ["'none'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'", "'unsafe-inline'"],
};

function readHtml(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

function readIndexHtml(webDist: string): string {
  return readHtml(path.join(webDist, 'index.html'));
}

/**
 * The headers helmet sets for `options`, computed once. (Its middleware, and the Fastify plugin
 * around it, rebuild them from the options on every request: a measurable share of a cheap route.)
 */
export function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: string | number) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown;
  // why: helmet's middleware runs its steps synchronously and calls `next` once at the end.
  helmet(options)({} as never, response as never, (error?: unknown) => {
    failure = error;
  });
  if (failure) throw failure;
  return headers;
}

/**
 * Security headers on every answer (helmet's, computed once): a Content-Security-Policy the
 * customer app passes (see `appDirectives`; the docs get `DOCS_DIRECTIVES`), `X-Frame-Options:
 * DENY`, `X-Content-Type-Options: nosniff`, `Referrer-Policy: no-referrer` (API calls carry the
 * session token in their query string, spec §7), and HSTS only on answers served over TLS
 * (`request.protocol`, which honours TRUST_PROXY). Register before the routes it covers.
 */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  options: SecurityHeadersOptions,
): Promise<void> {
  const docsPrefix = options.docsPrefix ?? '/docs';
  const common: HelmetOptions = {
    // why: set below, and only over TLS; on plain HTTP a browser ignores it anyway.
    strictTransportSecurity: false,
    referrerPolicy: { policy: 'no-referrer' },
    xFrameOptions: { action: 'deny' },
  };
  const appHeaders = helmetHeaders({
    ...common,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: appDirectives(hashInlineBlocks(readIndexHtml(options.webDist))),
    },
  });
  const docsHeaders = helmetHeaders({
    ...common,
    contentSecurityPolicy: { useDefaults: false, directives: DOCS_DIRECTIVES },
  });
  const isDocs = (url: string) => url === docsPrefix || url.startsWith(`${docsPrefix}/`);
  const pageHeaders = new Map(
    Object.entries(options.pages ?? {}).map(([url, file]) => [
      url,
      helmetHeaders({
        ...common,
        contentSecurityPolicy: {
          useDefaults: false,
          directives: appDirectives(hashInlineBlocks(readHtml(file))),
        },
      }),
    ]),
  );

  app.addHook('onRequest', async (request, reply) => {
    const page = pageHeaders.size > 0 ? pageHeaders.get(request.url.split('?')[0] ?? '') : undefined;
    reply.headers(page ?? (isDocs(request.routeOptions.url ?? '') ? docsHeaders : appHeaders));
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS_VALUE);
  });
}
