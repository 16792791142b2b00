// The layering rules of the architecture notes, checked by `npm run lint` (`depcruise`), so they
// cannot drift: a violation fails CI. Each rule says why it exists.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Circular imports make modules impossible to load, test or split on their own.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'platform-imports-no-module',
      severity: 'error',
      comment:
        'platform/ declares ports (Authenticator, Bus, Clock, Limit ...) that modules implement; it never reaches into a module.',
      from: { path: '^apps/server/src/platform/' },
      to: { path: '^apps/server/src/modules/' },
    },
    {
      name: 'no-foreign-repository',
      severity: 'error',
      comment:
        "Each table has one owning module; another module calls the owner's service, never its repository.",
      from: { path: '^apps/server/src/modules/([^/]+)/' },
      to: { path: '^apps/server/src/modules/[^/]+/repository', pathNot: '^apps/server/src/modules/$1/' },
    },
    {
      name: 'staff-imports-no-domain',
      severity: 'error',
      comment:
        "staff/ keeps staff accounts, sessions, permissions, the /admin-api hook, the dashboard and adjustments; each domain owns its back office (modules/<domain>/admin-routes.ts). Staff reads users, logins, the ledger and the audit log, and gets any other domain's figure as a function declared in staff and wired in app.ts, so a domain changes without touching staff.",
      from: { path: '^apps/server/src/modules/staff/' },
      to: {
        path: '^apps/server/src/modules/',
        pathNot: '^apps/server/src/modules/(staff|users|auth|ledger|audit)/',
      },
    },
    {
      name: 'domains-import-no-staff',
      severity: 'error',
      comment:
        "A domain's admin routes take who acts from platform/staff-actor.ts (the /admin-api hook sets it), never from staff/, so the back office of a domain does not depend on the staff module.",
      from: { path: '^apps/server/src/modules/([^/]+)/', pathNot: '^apps/server/src/modules/staff/' },
      to: { path: '^apps/server/src/modules/staff/' },
    },
    {
      name: 'repository-is-data-access-only',
      severity: 'error',
      comment: 'Repositories are plain query functions: no services, routes or other modules.',
      from: { path: '^apps/server/src/modules/[^/]+/repository' },
      to: { path: ['^apps/server/src/modules/[^/]+/(service|routes|module)', '^apps/server/src/app'] },
    },
    {
      name: 'modules-read-no-config',
      severity: 'error',
      comment:
        'Services get their settings as constructor options; only app.ts and server.ts read the environment through config.ts.',
      from: { path: '^apps/server/src/(modules|platform)/' },
      to: { path: '^apps/server/src/config\\.ts$' },
    },
    {
      name: 'nothing-imports-the-app',
      severity: 'error',
      comment: 'app.ts composes the modules; nothing inside it may depend on the composition.',
      from: { path: '^apps/server/src/(modules|platform)/' },
      to: { path: '^apps/server/src/(app|server|seed)\\.ts$' },
    },
    {
      name: 'migrations-are-frozen',
      severity: 'error',
      comment: 'Migrations are frozen in time: they import kysely and their own helpers, never app code.',
      from: { path: '^apps/server/src/platform/migrations/' },
      to: { path: '^apps/server/src/', pathNot: '^apps/server/src/platform/migrations/' },
    },
    {
      name: 'packages-never-reach-up',
      severity: 'error',
      comment: 'packages/* are shared by every app; they never import an app.',
      from: { path: '^packages/' },
      to: { path: '^apps/' },
    },
    {
      name: 'engine-is-pure',
      severity: 'error',
      comment: 'The matching engine does no I/O and depends on nothing but itself.',
      from: { path: '^packages/engine/src/' },
      to: { dependencyTypes: ['npm', 'core', 'local'], pathNot: '^packages/engine/src/' },
    },
    {
      name: 'web-features-are-independent',
      severity: 'error',
      comment: 'Features never import each other; compose them in app/ (routes).',
      from: { path: '^apps/web/src/features/([^/]+)/' },
      to: { path: '^apps/web/src/features/', pathNot: '^apps/web/src/features/$1/' },
    },
    {
      name: 'web-shared-is-below-features',
      severity: 'error',
      comment: 'shared/ and api/ serve every feature, so they import no feature and not the app shell.',
      from: { path: '^apps/web/src/(shared|api)/' },
      to: { path: '^apps/web/src/(features|app)/' },
    },
    {
      name: 'apps-do-not-import-each-other',
      severity: 'error',
      comment: 'The server and the web app meet only through packages/shared and HTTP.',
      from: { path: '^apps/(server|web)/' },
      to: { path: '^apps/', pathNot: '^apps/$1/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.mts', '.js', '.mjs', '.json'],
    },
  },
};
