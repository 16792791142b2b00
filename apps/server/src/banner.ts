/** What the start banner tells a new operator: where everything is and what it runs on. */
export interface StartInfo {
  /** The address `listen` answered, e.g. `http://0.0.0.0:8080` or `http://127.0.0.1:8080`. */
  address: string;
  /** Demo accounts and their (published) passwords; empty outside demo mode. */
  demoAccounts: readonly { username: string; password: string }[];
  store: { dialect: 'sqlite' | 'postgres'; dataDir: string; databaseUrl: string | undefined };
  /** The index feed: `simulated` or `venues`, how often it ticks, and what it is made of. */
  feed: { source: string; intervalMs: number; detail?: string };
  /** `in-process` or the NATS URL. */
  bus: string;
  node: string;
  /** The proof-of-reserves publication key's fingerprint (customers compare it with the app's). */
  reservesKey?: string;
}

/** The app's address as a person types it: a wildcard host becomes `localhost`. */
export function browsableUrl(address: string): string {
  const url = new URL(address);
  if (url.hostname === '0.0.0.0' || url.hostname === '[::]' || url.hostname === '::')
    url.hostname = 'localhost';
  return url.origin;
}

/** A database URL with its password blanked (the banner is printed to the log). */
export function withoutPassword(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return '(unparsable DATABASE_URL)';
  }
}

/** The banner's lines as label/value pairs, so it prints as text on a terminal and as fields in JSON. */
export function startFacts(info: StartInfo): [label: string, value: string][] {
  const base = browsableUrl(info.address);
  const store =
    info.store.dialect === 'postgres' && info.store.databaseUrl
      ? `PostgreSQL ${withoutPassword(info.store.databaseUrl)}`
      : `SQLite in ${info.store.dataDir}`;
  const facts: [string, string][] = [
    ['App', `${base}/`],
    ['Back office', `${base}/admin/`],
    ['API document', `${base}/docs`],
  ];
  if (info.demoAccounts.length > 0)
    facts.push(['Demo accounts', info.demoAccounts.map((a) => `${a.username} / ${a.password}`).join(', ')]);
  facts.push(
    ['Data', store],
    [
      'Index feed',
      `${info.feed.source}${info.feed.detail ? ` (${info.feed.detail})` : ''}, a tick every ${info.feed.intervalMs} ms`,
    ],
    ['Bus', info.bus],
    ['Runtime', `Node.js ${info.node}`],
  );
  if (info.reservesKey) facts.push(['Reserves key', info.reservesKey]);
  return facts;
}

/** The banner as text: a title and aligned label/value lines. */
export function formatStartBanner(info: StartInfo): string {
  const facts = startFacts(info);
  const width = Math.max(...facts.map(([label]) => label.length));
  const lines = facts.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`);
  return ['', '  Bourse is ready', '', ...lines, ''].join('\n');
}

/** The same facts as log fields with camel-case keys (`backOffice`, `demoAccounts`, …). */
export function startFields(info: StartInfo): Record<string, string> {
  return Object.fromEntries(
    startFacts(info).map(([label, value]) => [
      label.toLowerCase().replace(/ (\w)/g, (_m, c: string) => c.toUpperCase()),
      value,
    ]),
  );
}
