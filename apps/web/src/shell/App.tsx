import { CssBaseline, ThemeProvider } from '@mui/material';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { utcDayjs } from '../ui/dates/pickers';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { router } from './router';
import { theme } from './theme';
import { SessionProvider } from '../lib/session';
import { FleetProvider } from '../lib/fleet-context';
import { CookieConsentGate } from './cookie-consent';
import { MaintenanceGate } from './maintenance';
import { startFirstRequests } from './startup';
import { ServerNotices } from './ServerNotices';
import { refetchOnRecovery } from '../lib/connectivity';

/** The router's location changes, for the maintenance gate. */
const subscribeToPath = (listener: (pathname: string) => void) =>
  router.subscribe((state) => listener(state.location.pathname));

// networkMode 'always': with the browser offline a request fails (offline mode starts) instead of waiting
// unseen with its skeleton on screen; the offline mode (connectivity.ts), not TanStack Query, decides when to
// try again, and fetches every query again when the server answers.
const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 30_000, networkMode: 'always' },
    mutations: { networkMode: 'always' },
  },
});
void startFirstRequests(queryClient);
refetchOnRecovery(queryClient);

/**
 * Application start: maintenance (only its view while flagged), then cookie consent (nothing usable until
 * accepted), then sign-in and initialisation (RequireSession and the layout in the router).
 */
export function App() {
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <LocalizationProvider dateAdapter={AdapterDayjs} dateLibInstance={utcDayjs}>
        <MaintenanceGate maintenance={window.settings?.maintenance ?? false} subscribe={subscribeToPath}>
          <CookieConsentGate>
            <QueryClientProvider client={queryClient}>
              <ServerNotices>
                <SessionProvider>
                  <FleetProvider>
                    <RouterProvider router={router} />
                  </FleetProvider>
                </SessionProvider>
              </ServerNotices>
            </QueryClientProvider>
          </CookieConsentGate>
        </MaintenanceGate>
      </LocalizationProvider>
    </ThemeProvider>
  );
}
