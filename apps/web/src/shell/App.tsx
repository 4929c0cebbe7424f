import { CssBaseline, ThemeProvider } from '@mui/material';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { utcDayjs } from '../ui/dates/pickers';
import { QueryClientProvider } from '@tanstack/react-query';
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
import { createQueryClient, exposeActivity } from '../lib/query-client';

/** The router's location changes, for the maintenance gate. */
const subscribeToPath = (listener: (pathname: string) => void) =>
  router.subscribe((state) => listener(state.location.pathname));

const queryClient = createQueryClient();
void startFirstRequests(queryClient);
refetchOnRecovery(queryClient);
exposeActivity(queryClient);

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
