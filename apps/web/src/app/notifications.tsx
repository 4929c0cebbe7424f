import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { Alert, Snackbar } from '@mui/material';
import { MESSAGES, NOTIFICATION_HIDE_MS } from '@portal/contracts/rules';
import { onConnectivityChange } from './api';

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

/** The snackbar system: hides after 5 s unless persistent; shows nothing while offline. */
export function NotificationProvider({ children }: { children: ReactNode }) {
  const [queue, setQueue] = useState<Notification[]>([]);
  const [online, setOnline] = useState(true);
  useEffect(() => onConnectivityChange(setOnline), []);

  const notify = useCallback<Notifier['notify']>(
    (text, severity = 'info', options) => {
      if (!online) return;
      setQueue((q) => [...q, { id: nextId++, text, severity, persistent: options?.persistent }]);
    },
    [online],
  );
  const value = useMemo<Notifier>(
    () => ({
      notify,
      error: (text = MESSAGES.DEFAULT_ERROR, cause) => {
        if (cause) console.error(cause);
        notify(text, 'error');
      },
      success: (text = MESSAGES.DEFAULT_SUCCESS) => notify(text, 'success'),
      online,
    }),
    [notify, online],
  );
  const current = queue[0];
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
    </NotifierContext.Provider>
  );
}

export function useNotify(): Notifier {
  const notifier = useContext(NotifierContext);
  if (!notifier) throw new Error('useNotify outside NotificationProvider');
  return notifier;
}
