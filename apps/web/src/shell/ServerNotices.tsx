import { useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import { Alert, Button, Snackbar } from '@mui/material';
import { MAINTENANCE_CHECK_INTERVAL_MS, MESSAGES } from '@portal/contracts/rules';
import { checkNow, connectivity, offlineText, onConnectivity, watchConnectivity } from '../lib/connectivity';
import { NotificationProvider } from '../lib/notifications';
import { fetchServedVersion, isNewVersion, loadedVersion } from '../lib/version';

const defaultReload = () => window.location.reload();

/** How long "Connection established" shows once the server answers again. */
export const RECONNECTED_NOTICE_MS = 3_000;

/**
 * What the server's state tells the user, around the notifications of the features (lib/notifications.tsx): the
 * offline notice (offline mode is lib/connectivity.ts: a request without an answer, a proxy answering for the
 * server, or the browser reporting itself offline; it asks the server again with a growing pause and ends when it
 * answers), "Connection established" when it ends (the notifications wait meanwhile), and the update notification
 * (GET version every 5 minutes and when the tab comes back into view; a version other than the one this tab loaded
 * offers a reload).
 */
export function ServerNotices({
  children,
  reload = defaultReload,
}: {
  children: ReactNode;
  reload?: () => void;
}) {
  const status = useSyncExternalStore(onConnectivity, connectivity);
  const online = status.online;
  const [reconnected, setReconnected] = useState(false);
  const [updateAvailable, setUpdateAvailable] = useState(false);
  const recoveries = useRef(status.recoveries);

  useEffect(() => watchConnectivity(), []);

  // Offline mode ended: "Connection established" for a moment (the queries are fetched again: connectivity.ts).
  useEffect(() => {
    if (status.recoveries === recoveries.current) return;
    recoveries.current = status.recoveries;
    setReconnected(true);
    const timer = setTimeout(() => setReconnected(false), RECONNECTED_NOTICE_MS);
    return () => clearTimeout(timer);
  }, [status.recoveries]);
  useEffect(() => {
    if (!online) setReconnected(false);
  }, [online]);

  // Update notification: compare the served version with the one this tab loaded.
  useEffect(() => {
    const check = () =>
      fetchServedVersion()
        .then((served) => {
          if (isNewVersion(loadedVersion(), served)) setUpdateAvailable(true);
        })
        .catch(() => undefined);
    const whenVisible = () => {
      if (document.visibilityState === 'visible') void check();
    };
    void check();
    const timer = setInterval(check, MAINTENANCE_CHECK_INTERVAL_MS);
    document.addEventListener('visibilitychange', whenVisible);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', whenVisible);
    };
  }, []);

  return (
    <>
      <NotificationProvider held={reconnected}>{children}</NotificationProvider>
      <Snackbar open={!online} anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}>
        <Alert
          severity="warning"
          variant="filled"
          data-testid="offline"
          data-cause={status.cause ?? undefined}
          action={
            <Button
              color="inherit"
              size="small"
              sx={{ whiteSpace: 'nowrap' }}
              onClick={() => void checkNow()}
            >
              Try now
            </Button>
          }
        >
          {offlineText(status.cause)}
        </Alert>
      </Snackbar>
      <Snackbar open={reconnected} anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}>
        <Alert severity="success" variant="filled" data-testid="reconnected">
          {MESSAGES.CONNECTION_ESTABLISHED}
        </Alert>
      </Snackbar>
      <Snackbar open={updateAvailable && online} anchorOrigin={{ vertical: 'top', horizontal: 'center' }}>
        <Alert
          severity="info"
          variant="filled"
          data-testid="update-available"
          action={
            <Button color="inherit" size="small" onClick={reload}>
              Reload
            </Button>
          }
          onClose={() => setUpdateAvailable(false)}
        >
          A new version is available
        </Alert>
      </Snackbar>
    </>
  );
}
