import type { FastifyInstance } from 'fastify';
import type { WsGateway } from '../../platform/ws-gateway.ts';
import { supportRoutes, toWire } from './routes.ts';
import { SUPPORT_SUBJECT, type SupportDeps, SupportService } from './service.ts';

/** The private `/ws` channel of a user's support chat: `{unread}` first, then `{message, unread}`. */
export const CHAT_CHANNEL = 'chat';

export interface SupportModule {
  service: SupportService;
  /** Relays new messages to this node's subscribers. */
  start(): Promise<void>;
}

export function registerSupportModule(
  api: FastifyInstance,
  deps: SupportDeps & { gateway: WsGateway },
): SupportModule {
  const service = new SupportService(deps);
  api.register(supportRoutes, { support: service });
  const { gateway } = deps;
  gateway.addPrivateChannel(CHAT_CHANNEL, {
    snapshot: async (userId) => ({ unread: await service.unread(userId) }),
  });
  return {
    service,
    async start() {
      await deps.bus.subscribe<{ userId: bigint; messageId: bigint }>(SUPPORT_SUBJECT, async ({ data }) => {
        if (!gateway.hasUserSubscriber(CHAT_CHANNEL, data.userId)) return;
        gateway.sendToUser(CHAT_CHANNEL, data.userId, {
          message: toWire(await service.message(data.messageId)),
          unread: await service.unread(data.userId),
        });
      });
    },
  };
}
