import { createBrowserRouter, Outlet } from 'react-router';
import { LoginPage, LogoffPage } from '../features/auth/LoginPage';
import { FleetDashboardPage } from '../features/dashboards/FleetDashboardPage';
import { RequireSession } from './RequireSession';
import { useSession } from './session';

function Logoff() {
  const { signOut } = useSession();
  return <LogoffPage signOut={signOut} />;
}

export const router = createBrowserRouter([
  { path: '/login', element: <LoginPage /> },
  { path: '/logoff', element: <Logoff /> },
  {
    path: '/',
    element: (
      <RequireSession>
        <Outlet />
      </RequireSession>
    ),
    children: [
      { index: true, element: <FleetDashboardPage /> },
      { path: '*', element: <FleetDashboardPage /> },
    ],
  },
]);
