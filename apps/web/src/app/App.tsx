import { CssBaseline, ThemeProvider } from '@mui/material';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { router } from './router';
import { theme } from './theme';
import { SessionProvider } from './session';
import { NotificationProvider } from './notifications';
import { FleetProvider } from './fleet-context';
import { CookieConsentGate } from './cookie-consent';
import { MaintenanceGate } from './maintenance';

// networkMode 'always': with the browser offline a request fails (offline mode starts) instead of waiting
// unseen with its skeleton on screen; the offline mode, not TanStack Query, decides when to try again.
const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 30_000, networkMode: 'always' },
    mutations: { networkMode: 'always' },
  },
});

/**
 * Application start: maintenance (only its view while flagged), then cookie consent (nothing usable until
 * accepted), then sign-in and initialisation (RequireSession and the layout in the router).
 */
export function App() {
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <LocalizationProvider dateAdapter={AdapterDayjs}>
        <MaintenanceGate maintenance={window.settings?.maintenance ?? false}>
          <CookieConsentGate>
            <QueryClientProvider client={queryClient}>
              <NotificationProvider>
                <SessionProvider>
                  <FleetProvider>
                    <RouterProvider router={router} />
                  </FleetProvider>
                </SessionProvider>
              </NotificationProvider>
            </QueryClientProvider>
          </CookieConsentGate>
        </MaintenanceGate>
      </LocalizationProvider>
    </ThemeProvider>
  );
}
