import { Suspense, useState } from 'react';
import { Outlet } from 'react-router';
import { Alert, Box, Button, Drawer, Toolbar, useMediaQuery, useTheme } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { facilitiesQuery } from '../../lib/queries/facilities';
import { LoadingScreen } from '../loading';
import { NavDrawer } from './NavDrawer';
import { TopBar } from './TopBar';
import { Footer } from './Footer';
import { activeMessagesQuery } from '../../features/messages';
import { AccessGate } from './AccessViews';
import { WrongHostNotice } from '../../lib/wrong-host';

export const DRAWER_WIDTH = 280;

/**
 * The signed-in shell around every page: top bar, the drawer (permanent on a wide screen, temporary on a
 * phone), the page, the footer. Initialisation loads the ships and the messages before the page shows.
 */
export function AppLayout() {
  const theme = useTheme();
  const wide = useMediaQuery(theme.breakpoints.up('md'));
  const [mobileOpen, setMobileOpen] = useState(false);
  const ships = useQuery(facilitiesQuery());
  const messages = useQuery(activeMessagesQuery());
  const initialising = ships.isPending || messages.isPending;

  const drawer = (
    <>
      <Toolbar />
      <NavDrawer onNavigate={wide ? undefined : () => setMobileOpen(false)} />
    </>
  );
  return (
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      <TopBar onToggleDrawer={() => setMobileOpen((o) => !o)} />
      {wide ? (
        <Drawer
          variant="permanent"
          sx={{
            width: DRAWER_WIDTH,
            flexShrink: 0,
            '& .MuiDrawer-paper': { width: DRAWER_WIDTH, boxSizing: 'border-box' },
          }}
        >
          {drawer}
        </Drawer>
      ) : (
        <Drawer
          variant="temporary"
          open={mobileOpen}
          onClose={() => setMobileOpen(false)}
          ModalProps={{ keepMounted: true }}
          sx={{ '& .MuiDrawer-paper': { width: DRAWER_WIDTH, maxWidth: '85vw', boxSizing: 'border-box' } }}
        >
          {drawer}
        </Drawer>
      )}
      <Box sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
        <Toolbar />
        <Box component="main" sx={{ flex: 1, minWidth: 0 }}>
          <WrongHostNotice sx={{ m: { xs: 2, sm: 3 }, mb: 0 }} />
          {ships.isError ? (
            <Alert
              severity="error"
              sx={{ m: 3 }}
              action={<Button onClick={() => void ships.refetch()}>Try again</Button>}
            >
              The ships could not be loaded.
            </Alert>
          ) : initialising ? (
            <LoadingScreen />
          ) : (
            <Suspense fallback={<LoadingScreen />}>
              <AccessGate>
                <Outlet />
              </AccessGate>
            </Suspense>
          )}
        </Box>
        <Footer />
      </Box>
    </Box>
  );
}
