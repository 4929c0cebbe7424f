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
import { Alert, Button, Snackbar } from '@mui/material';
import type { VersionInfo } from '@portal/contracts/environment';
import {
  MAINTENANCE_CHECK_INTERVAL_MS,
  MESSAGES,
  NOTIFICATION_HIDE_MS,
  OFFLINE_POLL_INTERVAL_MS,
} from '@portal/contracts/rules';
import { onConnectivityChange } from './api';
import { reportClientError } from './error-reporting';
import { portalSettings } from './settings';

export type Severity = 'success' | 'error' | 'info' | 'warning';
export interface Notification {
  id: number;
  text: string;
  severity: Severity;
  persistent?: boolean;
}

interface Notifier {
  notify(text: string, severity?: Severity, options?: { persistent?: boolean }): void;
  /** The default error notification: "Something went wrong! Please try again". */
  error(text?: string, cause?: unknown): void;
  /** The default success notification: "Changes were saved". */
  success(text?: string): void;
  online: boolean;
}

const NotifierContext = createContext<Notifier | undefined>(undefined);
let nextId = 1;

const defaultReload = () => window.location.reload();

/** How long "Connection established" shows before the page reloads. */
export const RECONNECT_RELOAD_DELAY_MS = 1_500;

async function fetchVersion(): Promise<VersionInfo | null> {
  const base = (() => {
    try {
      return portalSettings().apiBaseUrl;
    } catch {
      return '/api/';
    }
  })();
  const response = await fetch(new URL(`${base}version`, window.location.origin), { cache: 'no-store' });
  return response.ok ? ((await response.json()) as VersionInfo) : null;
}

/**
 * The snackbar system: hides after 5 s unless persistent; shows nothing while offline. Also the offline mode
 * (a request failed without a response: the offline snackbar, GET version every 10 s, "Connection established"
 * and a reload once the server answers) and the update notification (the served version differs from the one
 * loaded at start).
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
        if (onlineRef.current === isOnline) return;
        onlineRef.current = isOnline;
        setOnline(isOnline);
        if (isOnline) setReconnected(true);
      }),
    [],
  );

  // Offline: poll the version endpoint until the server answers.
  useEffect(() => {
    if (online) return;
    const timer = setInterval(() => {
      fetchVersion()
        .then((v) => {
          if (v && !onlineRef.current) {
            onlineRef.current = true;
            setOnline(true);
            setReconnected(true);
          }
        })
        .catch(() => undefined);
    }, OFFLINE_POLL_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [online]);

  useEffect(() => {
    if (!reconnected) return;
    const timer = setTimeout(reload, RECONNECT_RELOAD_DELAY_MS);
    return () => clearTimeout(timer);
  }, [reconnected, reload]);

  // Update notification: compare the served version with the one seen at start.
  useEffect(() => {
    let loaded: VersionInfo | null = null;
    const check = () =>
      fetchVersion()
        .then((v) => {
          if (!v) return;
          if (!loaded) loaded = v;
          else if (v.version !== loaded.version || v.build !== loaded.build) setUpdateAvailable(true);
        })
        .catch(() => undefined);
    void check();
    const timer = setInterval(check, MAINTENANCE_CHECK_INTERVAL_MS);
    return () => clearInterval(timer);
  }, []);

  const notify = useCallback<Notifier['notify']>((text, severity = 'info', options) => {
    if (!onlineRef.current) return;
    setQueue((q) => [...q, { id: nextId++, text, severity, persistent: options?.persistent }]);
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
      success: (text = MESSAGES.DEFAULT_SUCCESS) => notify(text, 'success'),
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
          <Alert severity={current.severity} variant="filled" onClose={close} data-testid="notification">
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
          A new version of the portal is available.
        </Alert>
      </Snackbar>
    </NotifierContext.Provider>
  );
}

export function useNotify(): Notifier {
  const notifier = useContext(NotifierContext);
  if (!notifier) throw new Error('useNotify outside NotificationProvider');
  return notifier;
}
