import { z } from 'zod';
import { buildApp } from './app.ts';
import { formatStartBanner, type StartInfo, startFields } from './banner.ts';
import { type Config, loadConfig } from './config.ts';
import { holdDataDirLock } from './platform/data-dir-lock.ts';
import { DEMO_USERS } from './seed.ts';

const config = readConfig();
// why: `npm run restore` refuses to write under a running server; this file is how it knows.
const lock = holdDataDirLock(config.dataDir);
const app = await buildApp({ config, serveWhileWarming: true });
if (lock.otherHolder !== undefined) {
  app.log.warn(
    { pid: lock.otherHolder, dataDir: config.dataDir },
    'another server process uses this DATA_DIR',
  );
}
if (config.feedSeedUnsafe) {
  app.log.warn(
    { feedSeed: config.feedSeed },
    'FEED_SEED_UNSAFE=on: the simulated feed replays a seeded walk, so its prices can be computed in advance',
  );
}

const shutdown = async (signal: string, code = 0) => {
  app.log.info({ signal }, 'shutting down');
  await app.close();
  lock.release();
  process.exit(code);
};
process.once('SIGINT', () => void shutdown('SIGINT'));
process.once('SIGTERM', () => void shutdown('SIGTERM'));

const address = await app.listen({ port: config.port, host: config.host });
// why: the markets' books load once the server answers (a year's store holds 100,000 resting
// orders); /readyz reports them warming meanwhile. A node whose books cannot be loaded stops, as
// it did when they were loaded before it listened.
app.ctx.warmUp?.start().catch((error: unknown) => {
  app.log.fatal({ err: error }, 'the markets could not be loaded');
  void shutdown('warm-up failed', 1);
});
const info: StartInfo = {
  address,
  demoAccounts: config.demo ? DEMO_USERS : [],
  store: { dialect: app.ctx.store.dialect, dataDir: config.dataDir, databaseUrl: config.databaseUrl },
  feed: { source: app.ctx.feed.source, intervalMs: config.feedIntervalMs, detail: feedDetail(config) },
  bus: config.natsUrl ? `NATS JetStream (${config.natsPrefix})` : 'in-process',
  node: process.version,
  reservesKey: app.ctx.reserves?.service.fingerprint,
};
// why: a terminal gets a readable banner; a log collector gets the same facts as one JSON line.
// Both go through the logger, so the banner comes after the lines logged before it.
if (config.logPretty) app.log.info(formatStartBanner(info));
else app.log.info(startFields(info), `Bourse is listening on ${address} (Node.js ${process.version})`);

/**
 * The configuration, or a refusal to start: one line per problem on stderr (each names its
 * setting) and exit code 1, before anything is opened.
 */
function readConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    const lines =
      error instanceof z.ZodError
        ? error.issues.map((issue) =>
            issue.message.includes(String(issue.path[0] ?? ''))
              ? issue.message
              : `${issue.path.join('.')}: ${issue.message}`,
          )
        : [(error as Error).message];
    for (const line of lines) process.stderr.write(`Bourse cannot start: ${line}\n`);
    process.exit(1);
  }
}

/** What the banner says the index is made of: the venues, or the demo's walk and its randomness. */
function feedDetail(config: Config): string {
  const { venues, minSources } = config.indexSources;
  if (venues.length > 0) return `median of ${venues.join(', ')}, at least ${minSources} valid`;
  return config.feedSeed === undefined
    ? 'demo only, random from node:crypto at each start'
    : `demo only, seeded walk FEED_SEED=${config.feedSeed}: replayable`;
}
