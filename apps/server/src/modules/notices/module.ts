import type { FastifyInstance } from 'fastify';
import type { Bus } from '../../platform/bus.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Db } from '../../platform/db.ts';
import type { WsGateway } from '../../platform/ws-gateway.ts';
import type { AuditService } from '../audit/service.ts';
import { noticesRoutes } from './routes.ts';
import { NOTICES_SUBJECT, NoticesService } from './service.ts';

/** The private `/ws` channel of a user's unread count: `{unread}`, or `{broadcast: true}` for one more. */
export const NOTICES_CHANNEL = 'notices';

export interface NoticesModule {
  service: NoticesService;
  /** Relays "notices changed" events to this node's subscribers. */
  start(): Promise<void>;
}

export function registerNoticesModule(
  api: FastifyInstance,
  deps: {
    db: Db;
    clock: Clock;
    bus: Bus;
    audit: AuditService;
    gateway: WsGateway;
    onError: (error: unknown) => void;
  },
): NoticesModule {
  const service = new NoticesService(deps);
  api.register(noticesRoutes, { notices: service });
  const { gateway } = deps;
  gateway.addPrivateChannel(NOTICES_CHANNEL, {
    snapshot: async (userId) => ({ unread: await service.unread(userId) }),
  });
  return {
    service,
    async start() {
      await deps.bus.subscribe<{ userId: bigint | null }>(NOTICES_SUBJECT, async ({ data }) => {
        if (data.userId === null) {
          gateway.sendToAllUsers(NOTICES_CHANNEL, { broadcast: true });
          return;
        }
        if (!gateway.hasUserSubscriber(NOTICES_CHANNEL, data.userId)) return;
        gateway.sendToUser(NOTICES_CHANNEL, data.userId, { unread: await service.unread(data.userId) });
      });
    },
  };
}
