import { type ComponentType, type LazyExoticComponent, lazy, Suspense } from 'react';
import { HashRouter, Navigate, Route, Routes, useLocation } from 'react-router';
import { PATHS } from '../shared/paths.ts';
import { PageFallback } from '../shared/ui/lazy-fallback.tsx';
import { PageErrorBoundary } from './page-error-boundary.tsx';
import { RootLayout } from './root-layout.tsx';
import { RouteGuard } from './route-guard.tsx';
import { APP_ROUTES, type AppRoute, getLoadedPage } from './routes.tsx';
import { TabBarLayout } from './tab-bar-layout.tsx';

interface BuiltRoute {
  route: AppRoute;
  Page: LazyExoticComponent<ComponentType>;
}

/**
 * A module already loaded, as a thenable that calls back at once: React.lazy then renders the page
 * in the same pass instead of showing the fallback for a moment (it reads a thenable's result
 * synchronously when `then` calls back synchronously).
 */
function settled<T>(value: T): Promise<T> {
  // biome-ignore lint/suspicious/noThenProperty: a thenable is the point: React.lazy reads it at once.
  return { then: (resolve: (v: T) => unknown) => resolve(value) } as unknown as Promise<T>;
}

// why: one lazy component per route, made once, so each page's code loads on first visit only.
// The entry page is loaded before the first render (main.tsx): that render is the page itself,
// which replaces the frame index.html painted, with no loading state in between.
const BUILT_ROUTES: readonly BuiltRoute[] = APP_ROUTES.flatMap((route) => {
  const page = route.page;
  if (!page) return [];
  const Page = lazy(() => {
    const loaded = getLoadedPage(route.path);
    return loaded ? settled(loaded) : page();
  });
  return [{ route, Page }];
});

function renderRoute({ route, Page }: BuiltRoute) {
  return <Route key={route.path} path={route.path} element={<Page />} />;
}

function RouteTable() {
  const { pathname } = useLocation();
  return (
    <PageErrorBoundary resetKey={pathname}>
      <Suspense fallback={<PageFallback />}>
        <Routes>
          <Route path="/" element={<Navigate to={PATHS.markets} replace />} />
          <Route element={<TabBarLayout />}>
            {BUILT_ROUTES.filter((r) => r.route.meta.tabBar).map(renderRoute)}
          </Route>
          {BUILT_ROUTES.filter((r) => !r.route.meta.tabBar).map(renderRoute)}
          {/* why: pages of later issues and unknown paths alike end on /404, after the guards ran. */}
          <Route path="*" element={<Navigate to={PATHS.notFound} replace />} />
        </Routes>
      </Suspense>
    </PageErrorBoundary>
  );
}

/** The route table turned into routes: guards first, tab pages inside the tab layout, /404 for the rest. */
export function AppRoutes() {
  return (
    <HashRouter>
      <RouteGuard>
        <RootLayout>
          <RouteTable />
        </RootLayout>
      </RouteGuard>
    </HashRouter>
  );
}
