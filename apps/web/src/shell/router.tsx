import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { LinearProgress } from '@mui/material';
import { administrationPath, type Role } from '@portal/contracts/rules';
import { LoginPage, LogoffPage } from '../features/auth/LoginPage';
import FleetDashboardPage from '../features/dashboards/FleetDashboardPage';
import { AppLayout } from './layout/AppLayout';
import NotFoundPage from './layout/NotFoundPage';
import { RouteErrorView } from './layout/RouteErrorView';
import {
  ADMINISTRATORS,
  FLEET_ROLES,
  SYSTEM_ADMIN_ONLY,
  VERIFICATION_READERS,
  type RouteAccess,
} from '../lib/access';
import { RequireSession } from './RequireSession';
import { MaintenanceView } from '../features/maintenance';
import { MAINTENANCE_ADMIN_PATH } from './maintenance';
import { useSession } from '../lib/session';

// Everything but the fleet dashboard loads on demand: configuration and administration stay out of the first bundle.
const page = (load: () => Promise<{ default: ComponentType }>) => {
  const Component: LazyExoticComponent<ComponentType> = lazy(load);
  return (
    <Suspense fallback={<LinearProgress />}>
      <Component />
    </Suspense>
  );
};

function Logoff() {
  const { signOut } = useSession();
  return <LogoffPage signOut={signOut} />;
}

/** /admin: the organizations for a SystemAdmin, the own organization's page for a UserAdmin. */
function AdministrationHome() {
  const { profile } = useSession();
  return <Navigate to={administrationPath(profile?.roles ?? [], profile?.organizationId) ?? '/'} replace />;
}

/** The start page: the fleet dashboard, or a verifier's verification (docs/decisions/0115-verifier.md). */
function Home() {
  const { profile } = useSession();
  if (profile?.roles.includes('Verifier')) return <Navigate to="/verification" replace />;
  return <FleetDashboardPage />;
}

/** Who may open a route (decision 0004): the shell shows the no-access view to anyone else. */
const only = (roles: readonly Role[]): RouteAccess => ({ roles });
/**
 * The fleet's screens: every role but Verifier. A verifier opens its verification, and of a ship only the fuel
 * records and the record book its view links to (read only, of its year: docs/decisions/0115-verifier.md).
 */
const fleet = only(FLEET_ROLES);

/** Every route gets the error boundary: a failure (a page chunk that did not load) replaces the page, not the shell. */
const withErrorBoundaries = (table: RouteObject[]): RouteObject[] =>
  table.map((route) => ({
    ...route,
    errorElement: route.errorElement ?? <RouteErrorView />,
    ...(route.children ? { children: withErrorBoundaries(route.children) } : {}),
  })) as RouteObject[];

/**
 * The route table of both parts of the spec. Signed-in routes render inside the shell (top bar, drawer, footer);
 * `handle.roles` says which roles may open a route and everything under it.
 */
export const routes: RouteObject[] = withErrorBoundaries([
  { path: '/login', element: <LoginPage /> },
  { path: '/logoff', element: <Logoff /> },
  // The link of an alert e-mail: no sign-in (its token says whose e-mails).
  { path: '/unsubscribe', element: page(() => import('../features/alerts/UnsubscribePage')) },
  {
    path: '/',
    element: (
      <RequireSession>
        <AppLayout />
      </RequireSession>
    ),
    children: [
      { index: true, element: <Home /> },
      {
        path: 'verification',
        handle: only(VERIFICATION_READERS),
        children: [
          { index: true, element: page(() => import('../features/verification/VerificationPage')) },
          { path: ':year', element: page(() => import('../features/verification/VerificationPage')) },
          {
            path: ':organizationId/:year',
            handle: only(ADMINISTRATORS),
            element: page(() => import('../features/verification/VerificationPage')),
          },
        ],
      },
      {
        path: 'ship/:id',
        handle: fleet,
        element: page(() => import('../features/dashboards/ShipDashboardPage')),
      },
      { path: 'ship/:id/map', handle: fleet, element: page(() => import('../features/map/ShipMapPage')) },
      {
        path: 'ship/:id/carbon',
        handle: fleet,
        element: page(() => import('../features/carbon/ShipCarbonPage')),
      },
      { path: 'map', handle: fleet, element: page(() => import('../features/map/FleetMapPage')) },
      // The fleet's compliance calendar and cost cockpit: not a verifier's (the API refuses it both).
      {
        path: 'carbon/calendar',
        handle: fleet,
        element: page(() => import('../features/compliance-calendar/CalendarPage')),
      },
      {
        path: 'carbon/cockpit',
        handle: fleet,
        element: page(() => import('../features/cost-cockpit/CostCockpitPage')),
      },
      {
        path: 'KPIWidgetPreview',
        handle: fleet,
        element: page(() => import('../features/dashboards/KpiWidgetPreviewPage')),
      },
      {
        path: 'facilities',
        element: page(() => import('../features/facilities/FacilitiesLayout')),
        children: [
          { index: true, element: <Navigate to="overview" replace /> },
          {
            path: 'overview',
            handle: fleet,
            element: page(() => import('../features/facilities/ShipListPage')),
          },
          {
            path: ':facilityId/files',
            handle: fleet,
            element: page(() => import('../features/datasources/FilesPage')),
          },
          {
            path: ':facilityId/events',
            handle: fleet,
            element: page(() => import('../features/events/ShipEventsPage')),
          },
          {
            path: ':facilityId/record-book',
            element: page(() => import('../features/events/RecordBookPage')),
          },
          {
            path: ':facilityId/voyages/:voyageId',
            handle: fleet,
            element: page(() => import('../features/carbon/VoyagePage')),
          },
          {
            path: ':facilityId/fuel-records',
            element: page(() => import('../features/fuel-records/FuelRecordsPage')),
          },
          {
            path: ':facilityId/inspection-packs',
            handle: fleet,
            element: page(() => import('../features/inspection-packs/InspectionPacksPage')),
          },
          {
            path: ':facilityId/config',
            handle: only(SYSTEM_ADMIN_ONLY),
            element: page(() => import('../features/facilities/ConfigLayout')),
            children: [
              { index: true, element: <Navigate to="channels" replace /> },
              { path: 'info', element: page(() => import('../features/ship-info/ShipInfoPage')) },
              { path: 'channels', element: page(() => import('../features/datasources/ChannelsPage')) },
              {
                path: 'calculation-queue',
                element: page(() => import('../features/recalculation/CalculationQueuePage')),
              },
              {
                path: 'list',
                element: page(() => import('../features/measurement-fields/MeasurementFieldListPage')),
              },
              {
                path: 'detail',
                element: page(() => import('../features/measurement-fields/MeasurementFieldDetailPage')),
              },
              {
                path: 'data-health',
                element: page(() => import('../features/data-health/DataHealthPage')),
              },
            ],
          },
        ],
      },
      { path: 'events', handle: fleet, element: page(() => import('../features/events/EventsPage')) },
      {
        path: 'events/:id',
        handle: fleet,
        element: page(() => import('../features/events/EventDetailPage')),
      },
      {
        path: 'service',
        handle: fleet,
        element: page(() => import('../features/service/ServiceLayout')),
        children: [
          { index: true, element: <Navigate to="pureserv" replace /> },
          { path: 'pureserv', element: page(() => import('../features/service/PureservPage')) },
          {
            path: 'full-remote-access',
            element: page(() => import('../features/service/FullRemoteAccessPage')),
          },
          {
            path: 'tailor-made-service-agreements',
            element: page(() => import('../features/service/TailorMadeServicePage')),
          },
          { path: 'documents', element: page(() => import('../features/documents/DocumentsPage')) },
        ],
      },
      {
        path: 'report-config',
        handle: only(SYSTEM_ADMIN_ONLY),
        element: page(() => import('../features/reports/ReportConfigLayout')),
        children: [
          { index: true, element: <Navigate to="overview" replace /> },
          { path: 'overview', element: page(() => import('../features/reports/ReportOverviewPage')) },
          {
            path: 'calculation-queue',
            element: page(() => import('../features/recalculation/CalculationQueuePage')),
          },
          { path: 'data-export', element: page(() => import('../features/exports/DataExportPage')) },
          { path: 'detail/:id?', element: page(() => import('../features/reports/ReportDetailPage')) },
        ],
      },
      {
        path: 'admin',
        handle: only(ADMINISTRATORS),
        element: page(() => import('../features/organizations/AdminLayout')),
        children: [
          { index: true, element: <AdministrationHome /> },
          {
            path: 'organizations',
            handle: only(SYSTEM_ADMIN_ONLY),
            element: page(() => import('../features/organizations/OrganizationsPage')),
          },
          {
            path: 'messages',
            handle: only(SYSTEM_ADMIN_ONLY),
            element: page(() => import('../features/messages/MessagesAdminPage')),
          },
          {
            path: 'maintenance',
            handle: only(SYSTEM_ADMIN_ONLY),
            element: page(() => import('../features/maintenance/MaintenancePage')),
          },
          {
            path: 'outbox',
            handle: only(SYSTEM_ADMIN_ONLY),
            element: page(() => import('../features/alerts/OutboxPage')),
          },
          {
            path: 'data-retention',
            handle: only(SYSTEM_ADMIN_ONLY),
            element: page(() => import('../features/retention/DataRetentionPage')),
          },
          {
            path: ':organizationId/manage',
            element: page(() => import('../features/organizations/ManageOrganizationPage')),
          },
          {
            path: ':organizationId/webhooks',
            element: page(() => import('../features/webhooks/WebhooksPage')),
          },
        ],
      },
      { path: 'help', element: page(() => import('../features/info/HelpPage')) },
      { path: 'legal', element: page(() => import('../features/info/LegalPage')) },
      { path: 'profile', element: page(() => import('../features/info/ProfilePage')) },
      // In the first bundle anyway: the error view shows it for an unknown ship (a lazy import would not split it).
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);

/**
 * The route table while the settings flag maintenance (docs/decisions/0105-maintenance-console.md): sign-in and
 * sign-out, the maintenance console at /admin/maintenance (behind the sign-in; no shell) and the maintenance view
 * anywhere else. The page reloads when the flag changes, so a tab never mixes the two tables.
 */
export const maintenanceRoutes: RouteObject[] = withErrorBoundaries([
  { path: '/login', element: <LoginPage /> },
  { path: '/logoff', element: <Logoff /> },
  {
    path: MAINTENANCE_ADMIN_PATH,
    element: (
      <RequireSession>{page(() => import('../features/maintenance/MaintenanceConsole'))}</RequireSession>
    ),
  },
  { path: '*', element: <MaintenanceView /> },
]);

export const router = createBrowserRouter(window.settings?.maintenance ? maintenanceRoutes : routes);
