import { useEffect, useRef, useState } from 'react';
import { Alert, Box, CircularProgress, Typography } from '@mui/material';
import { useNavigate } from 'react-router';
import { returnPathAfterSignIn, returnPathBeforeSignIn, userManager } from '../../lib/auth';
import { WrongHostNotice, wrongHostAddress } from '../../lib/wrong-host';

/**
 * /login: starts the sign-in at the identity provider, or, when the provider sends the browser back with a
 * code, finishes it and goes to the page it was started for (`/login?returnTo=`, carried in the sign-in's state;
 * only a path of the portal).
 */
export function LoginPage() {
  const navigate = useNavigate();
  const [error, setError] = useState<string>();
  const started = useRef(false);
  // Away from the public address the identity provider cannot be reached (the browser's security policy): explain.
  const wrongHost = wrongHostAddress() !== null;

  useEffect(() => {
    if (started.current || wrongHost) return;
    started.current = true;
    const params = new URLSearchParams(window.location.search);
    const manager = userManager();
    if (params.has('code') || params.has('error')) {
      manager
        .signinRedirectCallback()
        .then((user) => navigate(returnPathAfterSignIn(user.state), { replace: true }))
        .catch((e: Error) => setError(e.message));
    } else {
      // The page to return to travels with the sign-in (its `state`, kept by oidc-client-ts until the callback).
      const returnTo = returnPathBeforeSignIn(window.location.search);
      void manager.signinRedirect({ state: { returnTo } }).catch((e: Error) => setError(e.message));
    }
  }, [navigate, wrongHost]);

  return (
    <Box sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', p: 2 }}>
      {wrongHost ? (
        <WrongHostNotice sx={{ maxWidth: 560 }} />
      ) : error ? (
        <Alert severity="error" action={<a href="/login">Try again</a>}>
          {error}
        </Alert>
      ) : (
        <Box sx={{ textAlign: 'center' }}>
          <CircularProgress />
          <Typography sx={{ mt: 2 }}>Signing in…</Typography>
        </Box>
      )}
    </Box>
  );
}

/** /logoff: ends the session at the API and the identity provider. */
export function LogoffPage({ signOut }: { signOut: () => Promise<void> }) {
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void signOut();
  }, [signOut]);
  return (
    <Box sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center' }}>
      <Typography>Signing out…</Typography>
    </Box>
  );
}
