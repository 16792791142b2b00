import {
  AcceptTermsBody,
  Claims,
  ContentDetail,
  ContentList,
  ContentListQuery,
  ContentPageQuery,
  ContentQuery,
  Marquee,
  TermsStatus,
  TermsVersion,
  TokenOnly,
} from '@bourse/shared/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireAuth } from '../../platform/auth-hook.ts';
import { clientOf, envelope, ok } from '../../platform/http.ts';
import { toSafeNumber } from '../../platform/time.ts';
import { ACCEPT_TERMS_ERRORS, type ContentService, DETAIL_ERRORS } from './service.ts';

type Detail = Awaited<ReturnType<ContentService['detail']>>;
type Status = Awaited<ReturnType<ContentService['termsStatus']>>;
function toStatus(status: Status) {
  return {
    version: Number(status.version),
    accepted_version: Number(status.acceptedVersion),
    accepted_at: status.acceptedAt,
    must_accept: status.mustAccept,
  };
}
function toDetail(item: Detail) {
  return {
    id: toSafeNumber(item.id),
    title: item.title,
    body_html: item.bodyHtml,
    pinned: item.pinned,
    published_at: item.publishedAt,
  };
}

/**
 * Public reading of what content staff publish, in the request's language (ja-JP when an item has
 * no text in it): `/Index/gglist` and `/Index/gginfo` (announcements), `/Index/help` and
 * `/Index/helpinfo` (the help centre), `/Index/page` (about us, the MSB certificate),
 * `/Index/marquee` (the home page's line) and `/Index/claims` (the operator's marketing claims);
 * the terms of service in force (`/Index/terms`) and a customer's acceptance of them
 * (`/user/terms`, `/user/acceptterms`).
 */
export async function contentRoutes(
  app: FastifyInstance,
  options: { content: ContentService },
): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { content } = options;
  const tags = ['content'];

  for (const [kind, listPath, infoPath, what] of [
    ['announcement', '/Index/gglist', '/Index/gginfo', 'Announcement'],
    ['help', '/Index/help', '/Index/helpinfo', 'HelpArticle'],
  ] as const) {
    api.get(listPath, {
      schema: {
        tags,
        operationId: `list${what}s`,
        summary: `Published ${kind === 'help' ? 'help articles' : 'announcements'}: pinned first, then newest`,
        querystring: ContentListQuery,
        response: { 200: envelope(ContentList) },
      },
      handler: async (request) => {
        const page = request.query.page;
        const result = await content.list(kind, request.locale, page);
        return ok(request, {
          list: result.list.map((item) => ({
            id: toSafeNumber(item.id),
            title: item.title,
            excerpt: item.excerpt,
            pinned: item.pinned,
            published_at: item.publishedAt,
          })),
          page,
          has_more: result.hasMore,
        });
      },
    });

    api.get(infoPath, {
      schema: {
        tags,
        operationId: `get${what}`,
        summary: `One published ${kind === 'help' ? 'help article' : 'announcement'} with its sanitised body`,
        querystring: ContentQuery,
        response: { 200: envelope(ContentDetail) },
      },
      config: { errors: DETAIL_ERRORS },
      handler: async (request) =>
        ok(request, toDetail(await content.detail({ id: BigInt(request.query.id), kind }, request.locale))),
    });
  }

  api.get('/Index/page', {
    schema: {
      tags,
      operationId: 'getContentPage',
      summary:
        'One of the operator’s pages: about us (`aboutus`), the MSB certificate (`msb`), the privacy policy (`privacy`), the terms of service (`terms`) or the whitepaper (`whitepaper`)',
      querystring: ContentPageQuery,
      response: { 200: envelope(ContentDetail) },
    },
    config: { errors: DETAIL_ERRORS },
    handler: async (request) =>
      ok(request, toDetail(await content.detail({ slug: request.query.slug }, request.locale))),
  });

  api.get('/Index/marquee', {
    schema: {
      tags,
      operationId: 'getMarquee',
      summary: 'The newest pinned announcement’s title, scrolled on the home page',
      response: { 200: envelope(Marquee) },
    },
    handler: async (request) => {
      const item = await content.marquee(request.locale);
      return ok(request, { item: item ? { id: toSafeNumber(item.id), title: item.title } : null });
    },
  });

  api.get('/Index/claims', {
    schema: {
      tags,
      operationId: 'getClaims',
      summary:
        'The marketing claims the operator makes; a reserve figure only while proof of reserves backs it',
      response: { 200: envelope(Claims) },
    },
    handler: async (request) => {
      const claims = await content.publicClaims();
      return ok(request, { leverage_max: claims.leverageMax, reserve_btc: claims.reserveBtc });
    },
  });

  api.get('/Index/terms', {
    schema: {
      tags,
      operationId: 'getTermsVersion',
      summary:
        'The terms-of-service version in force (0: none published); registration sends it as `terms_version`',
      response: { 200: envelope(TermsVersion) },
    },
    handler: async (request) => ok(request, { version: Number(await content.currentTermsVersion()) }),
  });

  api.get('/user/terms', {
    config: { auth: true },
    schema: {
      tags,
      operationId: 'getTermsStatus',
      summary: 'The terms version in force and whether this customer must accept it before trading',
      querystring: TokenOnly,
      response: { 200: envelope(TermsStatus) },
    },
    handler: async (request) => ok(request, toStatus(await content.termsStatus(requireAuth(request).userId))),
  });

  api.post('/user/acceptterms', {
    config: { auth: true, errors: ACCEPT_TERMS_ERRORS },
    schema: {
      tags,
      operationId: 'acceptTerms',
      summary: 'Accept the terms version in force (the one read); a stale version is refused',
      body: AcceptTermsBody,
      response: { 200: envelope(TermsStatus) },
    },
    handler: async (request) => {
      const status = await content.acceptTerms(
        requireAuth(request).userId,
        BigInt(request.body.version),
        clientOf(request).ip,
      );
      return ok(request, toStatus(status));
    },
  });
}
