import { buildApp } from './app.ts';
import { formatStartBanner, type StartInfo, startFields } from './banner.ts';
import { loadConfig } from './config.ts';
import { DEMO_USERS } from './seed.ts';

const config = loadConfig();
const app = await buildApp({ config });

const shutdown = async (signal: string) => {
  app.log.info({ signal }, 'shutting down');
  await app.close();
  process.exit(0);
};
process.once('SIGINT', () => void shutdown('SIGINT'));
process.once('SIGTERM', () => void shutdown('SIGTERM'));

const address = await app.listen({ port: config.port, host: config.host });
const info: StartInfo = {
  address,
  demoAccounts: config.demo ? DEMO_USERS : [],
  store: { dialect: app.ctx.store.dialect, dataDir: config.dataDir, databaseUrl: config.databaseUrl },
  feed: { source: app.ctx.feed.source, intervalMs: config.feedIntervalMs },
  bus: config.natsUrl ? `NATS JetStream (${config.natsPrefix})` : 'in-process',
  node: process.version,
  reservesKey: app.ctx.reserves?.service.fingerprint,
};
// why: a terminal gets a readable banner; a log collector gets the same facts as one JSON line.
// Both go through the logger, so the banner comes after the lines logged before it.
if (config.logPretty) app.log.info(formatStartBanner(info));
else app.log.info(startFields(info), `Bourse is listening on ${address} (Node.js ${process.version})`);
