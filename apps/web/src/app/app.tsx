import { AppRoutes } from './app-routes.tsx';
import { DesktopGate } from './desktop-gate.tsx';
import { Providers } from './providers.tsx';

export function App() {
  return (
    <Providers>
      <DesktopGate>
        <AppRoutes />
      </DesktopGate>
    </Providers>
  );
}
