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

/**
 * Pages that store nothing in the browser and need no sign-in: usable before cookies are accepted. The sheet sits
 * above them, in the page's flow, instead of covering them (the link of an alert e-mail, "Stop alert e-mails").
 */
export const PATHS_WITHOUT_CONSENT: readonly string[] = ['/unsubscribe'];

function CookieSheet({ onAccept, blocking }: { onAccept: () => void; blocking: boolean }) {
  return (
    <Paper
      role={blocking ? 'dialog' : 'region'}
      aria-modal={blocking ? 'true' : undefined}
      aria-labelledby="cookie-consent-title"
      elevation={blocking ? 8 : 0}
      square
      sx={{
        ...(blocking ? { position: 'fixed', left: 0, right: 0, bottom: 0 } : {}),
        py: 3,
        ...(blocking ? { borderTop: 4 } : { borderBottom: 4 }),
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
              These are needed for the portal to work; nothing is used for advertising or shared with others.
              Accept to continue.
            </Typography>
          </Box>
          <Button variant="contained" size="large" onClick={onAccept}>
            Accept cookies
          </Button>
        </Stack>
      </Container>
    </Paper>
  );
}

/**
 * The product cannot be used until cookies are accepted; the acceptance is remembered in this browser. A page of
 * `PATHS_WITHOUT_CONSENT` shows with the sheet above it.
 */
export function CookieConsentGate({
  children,
  path = window.location.pathname,
}: {
  children: ReactNode;
  path?: string;
}) {
  const [accepted, setAccepted] = useState(cookiesAccepted);
  if (accepted) return <>{children}</>;
  const accept = () => {
    localStorage.setItem(COOKIE_CONSENT_KEY, 'true');
    setAccepted(true);
  };
  if (PATHS_WITHOUT_CONSENT.includes(path))
    return (
      <>
        <CookieSheet onAccept={accept} blocking={false} />
        {children}
      </>
    );
  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default' }}>
      <CookieSheet onAccept={accept} blocking />
    </Box>
  );
}
