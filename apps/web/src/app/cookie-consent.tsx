import { useState, type ReactNode } from 'react';
import { Box, Button, Container, Paper, Stack, Typography } from '@mui/material';

export const COOKIE_CONSENT_KEY = 'portal.cookiesAccepted';

export const cookiesAccepted = () => {
  try {
    return localStorage.getItem(COOKIE_CONSENT_KEY) === 'true';
  } catch {
    return false;
  }
};

/** The product cannot be used until cookies are accepted; the acceptance is remembered in this browser. */
export function CookieConsentGate({ children }: { children: ReactNode }) {
  const [accepted, setAccepted] = useState(cookiesAccepted);
  if (accepted) return <>{children}</>;
  const accept = () => {
    localStorage.setItem(COOKIE_CONSENT_KEY, 'true');
    setAccepted(true);
  };
  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default' }}>
      <Paper
        role="dialog"
        aria-modal="true"
        aria-labelledby="cookie-consent-title"
        elevation={8}
        square
        sx={{
          position: 'fixed',
          left: 0,
          right: 0,
          bottom: 0,
          py: 3,
          borderTop: 4,
          borderColor: 'primary.main',
        }}
      >
        <Container maxWidth="md">
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
            <Box sx={{ flex: 1 }}>
              <Typography id="cookie-consent-title" variant="h6" component="h2" gutterBottom>
                Cookies
              </Typography>
              <Typography variant="body2" color="text.secondary">
                The portal stores a sign-in session, your chosen period and your fleet filter in this browser.
                These are needed for the portal to work; nothing is used for advertising or shared with
                others. Accept to continue.
              </Typography>
            </Box>
            <Button variant="contained" size="large" onClick={accept}>
              Accept cookies
            </Button>
          </Stack>
        </Container>
      </Paper>
    </Box>
  );
}
