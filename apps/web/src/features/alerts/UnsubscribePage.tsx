import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Alert, Box, Button, Card, CardContent, CircularProgress, Link, Typography } from '@mui/material';
import { useMutation, useQuery } from '@tanstack/react-query';
import { UNSUBSCRIBE_MESSAGES, type UnsubscribeStatus } from '@portal/contracts/alerts';
import { ApiRequestError, apiRequest } from '../../lib/api';

const refusal = (error: unknown) =>
  error instanceof ApiRequestError && error.status === 400
    ? UNSUBSCRIBE_MESSAGES.invalid
    : 'The portal could not be reached. Try again in a moment.';

/**
 * /unsubscribe?token= (no sign-in): the page an alert e-mail's "Stop alert e-mails" link opens. Opening it changes
 * nothing (mail scanners open links); the button stops the e-mails (POST alerts/unsubscribe), the bell stays.
 */
export default function UnsubscribePage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [stopped, setStopped] = useState<string | null>(null);
  const status = useQuery({
    queryKey: ['alerts', 'unsubscribe', token],
    queryFn: ({ signal }) =>
      apiRequest<UnsubscribeStatus>('alerts/unsubscribe', { query: { token }, signal }),
    enabled: token !== '',
    retry: false,
  });
  const stop = useMutation({
    mutationFn: () =>
      apiRequest<{ message: string }>('alerts/unsubscribe', { method: 'POST', query: { token }, body: {} }),
    onSuccess: (result) => setStopped(result.message),
  });

  let body;
  if (!token || status.isError)
    body = <Alert severity="error">{token ? refusal(status.error) : UNSUBSCRIBE_MESSAGES.invalid}</Alert>;
  else if (!status.data) body = <CircularProgress aria-label="Loading" />;
  else if (stopped)
    body = (
      <Alert severity="success" data-testid="unsubscribe-result">
        {stopped}
      </Alert>
    );
  else if (!status.data.emailsOn) body = <Alert severity="info">{UNSUBSCRIBE_MESSAGES.alreadyStopped}</Alert>;
  else
    body = (
      <>
        <Typography>
          Stop the alert e-mails to <strong>{status.data.email}</strong>? The alerts in the portal&apos;s bell
          stay, and you can turn e-mails on again on your profile (Alerts).
        </Typography>
        {stop.isError && <Alert severity="error">{refusal(stop.error)}</Alert>}
        <Box>
          <Button variant="contained" onClick={() => stop.mutate()} disabled={stop.isPending}>
            Stop alert e-mails
          </Button>
        </Box>
      </>
    );

  return (
    // Near the top: before cookies are accepted the cookie sheet sits above it (shell/cookie-consent.tsx).
    <Box
      component="main"
      sx={{ display: 'grid', justifyItems: 'center', alignContent: 'start', p: 2, pt: { xs: 3, sm: 10 } }}
    >
      <Card variant="outlined" sx={{ maxWidth: 520, width: '100%' }}>
        <CardContent sx={{ display: 'grid', gap: 2 }}>
          <Typography variant="h5" component="h1">
            Stop alert e-mails
          </Typography>
          {body}
          <Link href="/profile">Open my profile</Link>
        </CardContent>
      </Card>
    </Box>
  );
}
