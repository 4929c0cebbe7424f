import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import { Alert, Button, IconButton, Snackbar } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import { MAINTENANCE_CHECK_INTERVAL_MS, MESSAGES, NOTIFICATION_HIDE_MS } from '@portal/contracts/rules';
import { checkNow, connectivity, offlineText, onConnectivity, watchConnectivity } from './connectivity';
import { reportClientError } from './error-reporting';
import { fetchServedVersion, isNewVersion, loadedVersion } from './version';

export type Severity = 'success' | 'error' | 'info' | 'warning';
/** A button on the notification (Undo): pressing it closes the notification and runs `onClick`. */
export interface NotificationAction {
  label: string;
  onClick(): void;
}
export interface NotificationOptions {
  persistent?: boolean;
  action?: NotificationAction;
}
export interface Notification extends NotificationOptions {
  id: number;
  text: string;
  severity: Severity;
}

interface Notifier {
  notify(text: string, severity?: Severity, options?: NotificationOptions): void;
  /** The default error notification: "Something went wrong! Please try again". */
  error(text?: string, cause?: unknown): void;
  /** The default success notification: "Changes were saved". */
  success(text?: string, options?: NotificationOptions): void;
  online: boolean;
}

const NotifierContext = createContext<Notifier | undefined>(undefined);
let nextId = 1;

const defaultReload = () => window.location.reload();

/** How long "Connection established" shows once the server answers again. */
export const RECONNECTED_NOTICE_MS = 3_000;

/**
 * The snackbar system: hides after 5 s unless persistent; shows nothing while offline. Also the offline notice
 * (offline mode is connectivity.ts: a request without an answer, a proxy answering for the server, or the
 * browser reporting itself offline; it asks the server again with a growing pause and ends when it answers),
 * "Connection established" when it ends, and the update notification (GET version every 5 minutes and when the
 * tab comes back into view; a version other than the one this tab loaded offers a reload).
 */
export function NotificationProvider({
  children,
  reload = defaultReload,
}: {
  children: ReactNode;
  reload?: () => void;
}) {
  const [queue, setQueue] = useState<Notification[]>([]);
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

  const notify = useCallback<Notifier['notify']>((text, severity = 'info', options) => {
    if (!connectivity().online) return;
    setQueue((q) => [
      ...q,
      { id: nextId++, text, severity, persistent: options?.persistent, action: options?.action },
    ]);
  }, []);
  const value = useMemo<Notifier>(
    () => ({
      notify,
      error: (text = MESSAGES.DEFAULT_ERROR, cause) => {
        if (cause) {
          console.error(cause);
          reportClientError(cause);
        }
        notify(text, 'error');
      },
      success: (text = MESSAGES.DEFAULT_SUCCESS, options) => notify(text, 'success', options),
      online,
    }),
    [notify, online],
  );
  const current = online && !reconnected ? queue[0] : undefined;
  const close = () => setQueue((q) => q.slice(1));
  return (
    <NotifierContext.Provider value={value}>
      {children}
      <Snackbar
        key={current?.id}
        open={Boolean(current)}
        autoHideDuration={current?.persistent ? null : NOTIFICATION_HIDE_MS}
        onClose={(_e, reason) => reason !== 'clickaway' && close()}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
      >
        {current ? (
          <Alert
            severity={current.severity}
            variant="filled"
            onClose={close}
            data-testid="notification"
            action={
              current.action ? (
                <>
                  <Button
                    color="inherit"
                    size="small"
                    onClick={() => {
                      close();
                      current.action?.onClick();
                    }}
                  >
                    {current.action.label}
                  </Button>
                  <IconButton color="inherit" size="small" aria-label="Close" onClick={close}>
                    <CloseIcon fontSize="small" />
                  </IconButton>
                </>
              ) : undefined
            }
          >
            {current.text}
          </Alert>
        ) : undefined}
      </Snackbar>
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
    </NotifierContext.Provider>
  );
}

/** Whether the portal's server answers (connectivity.ts). */
export function useOnline(): boolean {
  return useSyncExternalStore(onConnectivity, connectivity).online;
}

export function useNotify(): Notifier {
  const notifier = useContext(NotifierContext);
  if (!notifier) throw new Error('useNotify outside NotificationProvider');
  return notifier;
}
