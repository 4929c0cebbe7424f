import { useEffect, useState, type ReactNode } from 'react';
import { Box, Button, Paper, Typography } from '@mui/material';
import { redirectToLogin, signInAgain } from '../lib/auth';
import { LoadingScreen } from './loading';
import { useSession } from '../lib/session';
import { useOnline } from '../lib/notifications';

/**
 * Sends a visitor without a valid sign-in (or with an expired token) to /login, remembering the path: at most
 * once per path per minute, so a sign-in that does not hold ends here with a button instead of a loop.
 */
export function RequireSession({ children }: { children: ReactNode }) {
  const { user, profile } = useSession();
  const [held, setHeld] = useState(false);
  const online = useOnline();
  // Offline, sign-in would open on a page that cannot load: it waits until the server answers.
  useEffect(() => {
    if (user === null && online) setHeld(!redirectToLogin());
  }, [user, online]);
  if (held && user === null)
    return (
      <Box sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', p: 2 }}>
        <Paper variant="outlined" sx={{ p: 4, maxWidth: 520 }} data-testid="signed-out">
          <Typography variant="h5" component="h1" gutterBottom>
            Your sign-in was not accepted
          </Typography>
          <Typography color="text.secondary" sx={{ mb: 3 }}>
            The sign-in for this page ended again right away. Sign in again, or try later.
          </Typography>
          <Button
            variant="contained"
            onClick={() =>
              signInAgain(window.location.pathname + window.location.search + window.location.hash)
            }
          >
            Sign in again
          </Button>
        </Paper>
      </Box>
    );
  if (!user || !profile) return <LoadingScreen />;
  return <>{children}</>;
}
