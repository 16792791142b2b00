import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { DOCS_DIRECTIVES } from './security-headers.ts';

/** Serves the built back office at `/admin/` (hash routes, so every page is its index.html). */
export function registerAdminApp(app: FastifyInstance, adminDist: string): void {
  if (!fs.existsSync(path.join(adminDist, 'index.html'))) {
    app.get('/admin/', { schema: { hide: true } }, async (_request, reply) =>
      reply.type('text/plain').send('The back office is not built yet: run `npm run build`.'),
    );
    return;
  }
  // why: antd writes its styles as <style> elements at run time, which the customer app's
  // hash-only policy refuses; the back office gets the docs' policy (inline styles, scripts 'self').
  const policy = Object.entries(DOCS_DIRECTIVES)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join('; ');
  app.addHook('onRequest', async (request, reply) => {
    if (request.url.startsWith('/admin/')) reply.header('content-security-policy', policy);
  });
  // why: with ignoreTrailingSlash, `/admin/` is routed as `/admin`, which the static wildcard
  // (`/admin/*`) does not match; the entry page is answered here.
  const indexHtml = fs.readFileSync(path.join(adminDist, 'index.html'), 'utf8');
  app.get('/admin', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(indexHtml),
  );
  app.register(fastifyStatic, {
    root: adminDist,
    prefix: '/admin/',
    decorateReply: false,
    index: false,
    setHeaders(reply, filePath) {
      const isHashedAsset = filePath.includes(`${path.sep}assets${path.sep}`);
      reply.header('cache-control', isHashedAsset ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
}

/** Serves the built customer app: hashed assets cached for a year, index.html always revalidated. */
export function registerWebApp(app: FastifyInstance, webDist: string): void {
  if (!fs.existsSync(path.join(webDist, 'index.html'))) {
    app.get('/', { schema: { hide: true } }, async (_request, reply) =>
      reply.type('text/plain').send('The customer app is not built yet: run `npm run build`.'),
    );
    return;
  }
  app.register(fastifyStatic, {
    root: webDist,
    prefix: '/',
    wildcard: true,
    index: ['index.html'],
    setHeaders(reply, filePath) {
      const isHashedAsset = filePath.includes(`${path.sep}assets${path.sep}`);
      reply.header('cache-control', isHashedAsset ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
}
