// Builds the customer app and the back office only when their sources are newer than the last build.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '..');
// why: a build started from a test run inherits NODE_ENV=test, and Vite would then bundle React's
// development build into dist, which `npm start` serves afterwards; the apps are always built for
// production.
const BUILD_ENV = { ...process.env, NODE_ENV: 'production' };
const dist = path.join(root, 'apps/web/dist/index.html');
const SOURCES = [
  'apps/web/src',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/web/public',
  'packages/shared/src',
  'packages/forms/src',
  'packages/i18n/src',
  'packages/i18n/resources/web',
  'packages/por/src',
  'packages/por/page',
  'package-lock.json',
];

function newestMtime(target) {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target))
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

/** True when apps/web/dist is missing or older than any source it is built from. */
export function isWebBuildStale() {
  if (!fs.existsSync(dist)) return true;
  const built = fs.statSync(dist).mtimeMs;
  return SOURCES.some((source) => newestMtime(path.join(root, source)) > built);
}

export function buildWebIfStale({ force = false } = {}) {
  if (force || isWebBuildStale()) {
    console.log('Building the customer app (apps/web)…');
    const result = spawnSync('npm', ['run', 'build', '-w', '@bourse/web'], {
      cwd: root,
      stdio: 'inherit',
      env: BUILD_ENV,
    });
    if (result.status !== 0) {
      console.error('The customer app failed to build.');
      process.exit(result.status ?? 1);
    }
  }
  buildAdminIfStale({ force });
}

const adminDist = path.join(root, 'apps/admin/dist/index.html');
const ADMIN_SOURCES = [
  'apps/admin/src',
  'apps/admin/index.html',
  'apps/admin/vite.config.ts',
  // why: the back office's forms and answers are typed by the shared API schemas; its forms are
  // made by the forms package, and its multi-language texts use the platform's locale list.
  'packages/shared/src',
  'packages/forms/src',
  'packages/i18n/src',
  'package-lock.json',
];

/** True when apps/admin/dist is missing or older than any source it is built from. */
export function isAdminBuildStale() {
  if (!fs.existsSync(adminDist)) return true;
  const built = fs.statSync(adminDist).mtimeMs;
  return ADMIN_SOURCES.some((source) => newestMtime(path.join(root, source)) > built);
}

/** Builds the back office (apps/admin, served at /admin/) when its sources changed. */
export function buildAdminIfStale({ force = false } = {}) {
  if (!force && !isAdminBuildStale()) return;
  console.log('Building the back office (apps/admin)…');
  const result = spawnSync('npm', ['run', 'build', '-w', '@bourse/admin'], {
    cwd: root,
    stdio: 'inherit',
    env: BUILD_ENV,
  });
  if (result.status !== 0) {
    console.error('The back office failed to build.');
    process.exit(result.status ?? 1);
  }
}
