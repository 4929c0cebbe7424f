import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { Alert, Button, IconButton, Snackbar } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import {
  MAINTENANCE_CHECK_INTERVAL_MS,
  MESSAGES,
  NOTIFICATION_HIDE_MS,
  OFFLINE_POLL_INTERVAL_MS,
} from '@portal/contracts/rules';
import { onConnectivityChange, reportConnectivity } from './api';
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

/** The browser says it has no network (`navigator.onLine` false); unknown counts as online. */
const browserReportsOffline = () => typeof navigator !== 'undefined' && navigator.onLine === false;

/** How long "Connection established" shows before the page reloads. */
export const RECONNECT_RELOAD_DELAY_MS = 1_500;

/**
 * The snackbar system: hides after 5 s unless persistent; shows nothing while offline. Also the offline mode
 * (a request failed without a response, or the browser reports itself offline: the offline snackbar, GET version
 * every 10 s and as soon as the browser is back online, "Connection established" and a reload once the server
 * answers) and the update notification (GET version every 5 minutes and when the tab comes back into view; a
 * version other than the one this tab loaded offers a reload).
 */
export function NotificationProvider({
  children,
  reload = defaultReload,
}: {
  children: ReactNode;
  reload?: () => void;
}) {
  const [queue, setQueue] = useState<Notification[]>([]);
  const [online, setOnline] = useState(true);
  const onlineRef = useRef(true);
  const [reconnected, setReconnected] = useState(false);
  const [updateAvailable, setUpdateAvailable] = useState(false);

  useEffect(
    () =>
      onConnectivityChange((isOnline) => {
        // While the browser reports offline its word wins: an answer that arrives late (sent before the link
        // went down) must not end offline mode, whose reload would show the browser's own offline page.
        if (isOnline && browserReportsOffline()) return;
        if (onlineRef.current === isOnline) return;
        onlineRef.current = isOnline;
        setOnline(isOnline);
        if (isOnline) setReconnected(true);
      }),
    [],
  );

  // Offline: poll the version endpoint until the server answers (at once when the browser is back online).
  useEffect(() => {
    if (online) return;
    const check = () =>
      fetchServedVersion()
        .then((v) => {
          if (v && !onlineRef.current && !browserReportsOffline()) {
            onlineRef.current = true;
            setOnline(true);
            setReconnected(true);
          }
        })
        .catch(() => undefined);
    const timer = setInterval(check, OFFLINE_POLL_INTERVAL_MS);
    window.addEventListener('online', check);
    return () => {
      clearInterval(timer);
      window.removeEventListener('online', check);
    };
  }, [online]);

  // The browser's own word: offline mode starts when it reports offline (queries would only wait otherwise).
  useEffect(() => {
    const wentOffline = () => reportConnectivity(false);
    if (!navigator.onLine) wentOffline();
    window.addEventListener('offline', wentOffline);
    return () => window.removeEventListener('offline', wentOffline);
  }, []);

  useEffect(() => {
    if (!reconnected) return;
    const timer = setTimeout(reload, RECONNECT_RELOAD_DELAY_MS);
    return () => clearTimeout(timer);
  }, [reconnected, reload]);

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
    if (!onlineRef.current) return;
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
        <Alert severity="warning" variant="filled" data-testid="offline">
          {MESSAGES.OFFLINE}
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

/** Whether the portal is online (true outside the provider). */
export function useOnline(): boolean {
  return useContext(NotifierContext)?.online ?? true;
}

export function useNotify(): Notifier {
  const notifier = useContext(NotifierContext);
  if (!notifier) throw new Error('useNotify outside NotificationProvider');
  return notifier;
}
