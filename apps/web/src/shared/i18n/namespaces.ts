/**
 * The customer-app text namespaces loaded before the first render: what the shell, the market
 * list (the first page), sign-in and the error messages need. Every other top-level namespace of
 * `packages/i18n/resources/web/<locale>.json` is a chunk of its own, loaded with the route that
 * names it (app/routes.tsx), so the first page does not carry every page's texts. The build
 * derives the other namespaces from the files (scripts/i18n-chunks.ts).
 */
export const CORE_NAMESPACES = [
  'common',
  'errors',
  'tabs',
  'auth',
  'markets',
  'settings',
  'notFound',
  'desktop',
  'form',
  'pwa',
  // why: the register page and the accept-the-terms sheet (over any page) use it.
  'terms',
] as const;
