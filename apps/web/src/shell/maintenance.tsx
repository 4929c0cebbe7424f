import { useEffect, useState, type ReactNode } from 'react';
import { MAINTENANCE_CHECK_INTERVAL_MS } from '@portal/contracts/rules';
import { MaintenanceView } from '../features/maintenance';
import { fetchSettings } from '../lib/settings';

const reloadPage = () => window.location.reload();

/** Re-reads /settings.js every 300000 ms; when the maintenance flag changed, the page reloads. */
export function useMaintenanceCheck(current: boolean, reload: () => void = reloadPage) {
  useEffect(() => {
    const timer = setInterval(() => {
      fetchSettings()
        .then((settings) => {
          if (settings && settings.maintenance !== current) reload();
        })
        .catch(() => undefined);
    }, MAINTENANCE_CHECK_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [current, reload]);
}

/** The SystemAdmin's maintenance screen: it stays reachable while maintenance is on, so it can be switched off. */
export const MAINTENANCE_ADMIN_PATH = '/admin/maintenance';
const ADMIN_RETURN_KEY = 'portal.maintenance.admin';

/**
 * Whether the maintenance view replaces the product at `pathname`: always while flagged, except the maintenance
 * screen itself and, after it was asked for in this session, the sign-in return (/login) that leads back to it.
 * The screen's own route guard and the API keep everyone but a SystemAdmin out.
 */
export function maintenanceViewShown(maintenance: boolean, pathname: string, adminReturn: boolean): boolean {
  if (!maintenance) return false;
  const path = pathname.replace(/\/+$/, '');
  if (path === MAINTENANCE_ADMIN_PATH) return false;
  return !(path === '/login' && adminReturn);
}

function readAdminReturn(): boolean {
  try {
    return sessionStorage.getItem(ADMIN_RETURN_KEY) === '1';
  } catch {
    return false;
  }
}

/**
 * While the settings flag maintenance, only the maintenance view is shown (but on the maintenance screen).
 * `subscribe` reports the router's location changes, so leaving that screen shows the view again.
 */
export function MaintenanceGate({
  maintenance,
  subscribe,
  children,
}: {
  maintenance: boolean;
  subscribe?: (listener: (pathname: string) => void) => () => void;
  children: ReactNode;
}) {
  useMaintenanceCheck(maintenance);
  const [pathname, setPathname] = useState(() => window.location.pathname);
  useEffect(() => subscribe?.(setPathname), [subscribe]);
  useEffect(() => {
    if (!maintenance) return;
    try {
      if (pathname.replace(/\/+$/, '') === MAINTENANCE_ADMIN_PATH)
        sessionStorage.setItem(ADMIN_RETURN_KEY, '1');
    } catch {
      // Without storage a SystemAdmin signed out cannot come back during maintenance; the API still works.
    }
  }, [maintenance, pathname]);
  return maintenanceViewShown(maintenance, pathname, readAdminReturn()) ? (
    <MaintenanceView />
  ) : (
    <>{children}</>
  );
}
