import { useEffect, useState } from 'react';
import { Box, CircularProgress, Typography } from '@mui/material';
import { LOADING_MESSAGE_THRESHOLDS_MS, loadingMessage } from '@portal/contracts/rules';
import { useOnline } from '../lib/notifications';

/**
 * The loading state of the application: a spinner, and texts that change after 5 s, 10 s and 20 s. Offline it
 * stops spinning and says it waits for the connection (the page carries on once the portal answers again).
 */
export function LoadingScreen() {
  const online = useOnline();
  const [elapsed, setElapsed] = useState(0);
  useEffect(() => {
    const started = Date.now();
    const timers = LOADING_MESSAGE_THRESHOLDS_MS.map((ms) =>
      setTimeout(() => setElapsed(Date.now() - started), ms),
    );
    return () => timers.forEach(clearTimeout);
  }, []);
  const text = loadingMessage(elapsed);
  if (!online)
    return (
      <Box
        sx={{ minHeight: '60vh', display: 'grid', placeItems: 'center', p: 3 }}
        data-testid="waiting-offline"
      >
        <Typography color="text.secondary" role="status" sx={{ textAlign: 'center', maxWidth: 480 }}>
          Waiting for the connection. The portal continues by itself when it answers again.
        </Typography>
      </Box>
    );
  return (
    <Box sx={{ minHeight: '60vh', display: 'grid', placeItems: 'center', p: 3 }} data-testid="loading">
      <Box sx={{ textAlign: 'center' }}>
        <CircularProgress aria-label="Loading" />
        {text && (
          <Typography sx={{ mt: 2 }} color="text.secondary" role="status">
            {text}
          </Typography>
        )}
      </Box>
    </Box>
  );
}
