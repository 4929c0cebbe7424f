import { CssBaseline, ThemeProvider } from '@mui/material';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { router } from './router';
import { theme } from './theme';
import { SessionProvider } from './session';
import { NotificationProvider } from './notifications';
import { FleetProvider } from './fleet-context';

const queryClient = new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 30_000 } } });

export function App() {
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <QueryClientProvider client={queryClient}>
        <NotificationProvider>
          <SessionProvider>
            <FleetProvider>
              <RouterProvider router={router} />
            </FleetProvider>
          </SessionProvider>
        </NotificationProvider>
      </QueryClientProvider>
    </ThemeProvider>
  );
}
