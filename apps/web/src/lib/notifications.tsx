import {
  createContext,
  useCallback,
  useContext,
  useMemo,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import { Alert, Button, IconButton, Snackbar } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import { MESSAGES, NOTIFICATION_HIDE_MS } from '@portal/contracts/rules';
import { connectivity, onConnectivity } from './connectivity';
import { reportClientError } from './error-reporting';

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

/**
 * The snackbar system: hides after 5 s unless persistent; shows nothing while offline (lib/connectivity.ts) or while
 * `held` (the shell holds it while "Connection established" shows: shell/ServerNotices.tsx, which also shows the
 * offline notice and the update notification).
 */
export function NotificationProvider({ children, held = false }: { children: ReactNode; held?: boolean }) {
  const [queue, setQueue] = useState<Notification[]>([]);
  const online = useOnline();

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
  const current = online && !held ? queue[0] : undefined;
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
