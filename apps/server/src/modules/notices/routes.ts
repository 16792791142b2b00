import {
  NoticeCountQuery,
  NoticeDetail,
  NoticeList,
  NoticeListQuery,
  NoticeQuery,
  ReadNoticeBody,
  UnreadCount,
} from '@bourse/shared/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireAuth } from '../../platform/auth-hook.ts';
import { historyPage } from '../../platform/history-page.ts';
import { envelope, ok } from '../../platform/http.ts';
import { toSafeNumber } from '../../platform/time.ts';
import { DETAIL_ERRORS, MARK_READ_ERRORS, type NoticesService, type NoticeView } from './service.ts';

function toItem(notice: NoticeView) {
  return {
    id: toSafeNumber(notice.id),
    title: notice.title,
    summary: notice.content.split('\n')[0]?.slice(0, 120) ?? '',
    created_at: notice.createdAt,
    read: notice.read ? (1 as const) : (0 as const),
    kind: notice.kind,
  };
}

/** `/apiv/user/notice`, `/apiv/User/noticeinfo`, `/apiv/user/readnoticeone`: the caller's notifications. */
export async function noticesRoutes(
  app: FastifyInstance,
  options: { notices: NoticesService },
): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { notices } = options;
  const tags = ['notices'];
  const config = { auth: true };

  api.get('/user/notice', {
    schema: {
      tags,
      operationId: 'listNotices',
      summary: 'The caller’s notifications, newest first, in the request’s language, with the unread count',
      querystring: NoticeListQuery,
      response: { 200: envelope(NoticeList) },
    },
    config,
    handler: async (request) => {
      const page = historyPage(request.query);
      const result = await notices.list(requireAuth(request).userId, request.locale, page);
      return ok(request, {
        list: result.list.map(toItem),
        unread: result.unread,
        page: page.page,
        has_more: result.hasMore,
        anti_phishing: result.antiPhishing,
      });
    },
  });

  api.get('/user/noticecount', {
    schema: {
      tags,
      operationId: 'countUnreadNotices',
      summary: 'How many of the caller’s notifications are unread (the user tab’s badge)',
      querystring: NoticeCountQuery,
      response: { 200: envelope(UnreadCount) },
    },
    config,
    handler: async (request) => ok(request, { unread: await notices.unread(requireAuth(request).userId) }),
  });

  api.get('/User/noticeinfo', {
    schema: {
      tags,
      operationId: 'getNotice',
      summary: 'One of the caller’s notifications',
      querystring: NoticeQuery,
      response: { 200: envelope(NoticeDetail) },
    },
    config: { ...config, errors: DETAIL_ERRORS },
    handler: async (request) => {
      const { notice, antiPhishing } = await notices.detail(
        requireAuth(request).userId,
        BigInt(request.query.id),
        request.locale,
      );
      return ok(request, { ...toItem(notice), content: notice.content, anti_phishing: antiPhishing });
    },
  });

  api.post('/user/readnoticeone', {
    schema: {
      tags,
      operationId: 'readNotice',
      summary: 'Marks one notification read (`id` 0: all of them); answers the unread count left',
      body: ReadNoticeBody,
      response: { 200: envelope(UnreadCount) },
    },
    config: { ...config, errors: MARK_READ_ERRORS },
    handler: async (request) => {
      const { id } = request.body;
      const unread = await notices.markRead(requireAuth(request).userId, id === 0 ? undefined : BigInt(id));
      return ok(request, { unread });
    },
  });
}
