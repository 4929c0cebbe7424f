import { useEffect, type ReactNode } from 'react';
import { Box, CircularProgress } from '@mui/material';
import { redirectToLogin } from './auth';
import { useSession } from './session';

/** Sends a visitor without a valid sign-in to /login, remembering the path. */
export function RequireSession({ children }: { children: ReactNode }) {
  const { user, profile } = useSession();
  useEffect(() => {
    if (user === null) redirectToLogin();
  }, [user]);
  if (!user || !profile) {
    return (
      <Box sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center' }}>
        <CircularProgress aria-label="Loading" />
      </Box>
    );
  }
  return <>{children}</>;
}
