import type { QueryClient } from '@tanstack/react-query';
import { MESSAGES, OFFLINE_POLL_INTERVAL_MS } from '@portal/contracts/rules';

/**
 * Whether the portal's server answers: the one home of offline mode (docs/decisions/0067-lost-server.md).
 * Every API call reports here (api.ts), so does the browser (its `offline` and `online` events); while the
 * server does not answer, `GET /api/version` is asked again with a growing pause (1 s, 2 s, 4 s, 8 s, then every
 * 10 s, the spec's poll); while it answers, every 30 s when the tab is in view, so an idle page notices too. The
 * notice is the shell's (shell/ServerNotices.tsx); the recovery (queries fetched again) is refetchOnRecovery below.
 */

/** Why the portal is offline: the browser says it has no network, or the portal's server does not answer. */
export type OfflineCause = 'browser' | 'no-answer' | 'gateway';

export interface Connectivity {
  online: boolean;
  /** Why not, while offline. */
  cause: OfflineCause | null;
  /** Checks that failed since offline mode began (the next pause grows with it). */
  attempt: number;
  /** Counts the returns to online: a change of it is a recovery. */
  recoveries: number;
}

export type ConnectivityEvent =
  /** A request failed without an answer (a network error). */
  | { type: 'no-answer' }
  /** A proxy answered for the server: 502, 503 or 504 without the portal's error body. */
  | { type: 'gateway' }
  /** The portal's server answered (any status with its own body). */
  | { type: 'answered' }
  | { type: 'browser-offline' }
  | { type: 'browser-online' }
  /** A check of the version while offline did not get an answer. */
  | { type: 'check-failed'; gateway: boolean };

export const ONLINE: Connectivity = { online: true, cause: null, attempt: 0, recoveries: 0 };

/** How long offline mode waits before the first check; doubled at each failed check, up to the spec's 10 s. */
export const FIRST_RETRY_MS = 1_000;
/** While online and in view: a check this often, so a page that asks nothing notices a lost server. */
export const HEARTBEAT_MS = 30_000;

/** The pause before check number `attempt + 1` (0 based): 1 s, 2 s, 4 s, 8 s, then 10 s; `jitter` in [0, 1). */
export function retryDelayMs(attempt: number, jitter = 0): number {
  const base = Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, Math.min(attempt, 20)), OFFLINE_POLL_INTERVAL_MS);
  // Up to a fifth shorter, so tabs that lost the server together do not all come back in the same instant.
  return Math.round(base * (1 - 0.2 * Math.min(Math.max(jitter, 0), 1)));
}

/**
 * Whether the server is not there to answer: a proxy answered for it (502, 503 or 504 without the portal's error
 * body, `code` and `message`), or the portal itself said it is starting or stopping (its 503 UNAVAILABLE, the only
 * 503 it gives: apps/api/src/starting.ts). A server coming back answers that 503 until it is ready: the page is
 * not back before it is (seen by the lost-server browser test once the server's start had a starting page).
 */
export function isGatewayFailure(status: number, body: unknown): boolean {
  if (status === 503) return true;
  if (status !== 502 && status !== 504) return false;
  const own =
    typeof body === 'object' &&
    body !== null &&
    typeof (body as { code?: unknown }).code === 'string' &&
    typeof (body as { message?: unknown }).message === 'string';
  return !own;
}

const offline = (state: Connectivity, cause: OfflineCause): Connectivity =>
  state.online ? { ...state, online: false, cause, attempt: 0 } : { ...state, cause };

/**
 * The state after an event. `browserOnline` is the browser's own word (`navigator.onLine`): while it says
 * offline, an answer that arrives late (sent before the link went down) does not end offline mode.
 */
export function nextConnectivity(
  state: Connectivity,
  event: ConnectivityEvent,
  browserOnline: boolean,
): Connectivity {
  switch (event.type) {
    case 'browser-offline':
      return offline(state, 'browser');
    case 'no-answer':
      return offline(state, browserOnline ? 'no-answer' : 'browser');
    case 'gateway':
      return offline(state, 'gateway');
    case 'check-failed':
      if (state.online) return state;
      return {
        ...state,
        cause: !browserOnline ? 'browser' : event.gateway ? 'gateway' : 'no-answer',
        attempt: state.attempt + 1,
      };
    case 'browser-online':
      // Back on the network: the server is asked at once (the pause starts over).
      return state.online ? state : { ...state, cause: 'no-answer', attempt: 0 };
    case 'answered':
      if (state.online || !browserOnline) return state;
      return { online: true, cause: null, attempt: 0, recoveries: state.recoveries + 1 };
  }
}

/**
 * Ours, in the tone of the spec's offline text: a proxy answered for the portal, so the browser's network is
 * fine and it is the portal's server that does not answer (the spec's text asks to check the internet access).
 */
export const SERVER_UNREACHABLE =
  "There seems to be a connection issue with the portal's server. Trying again… Any unsaved changes stay on this page.";

/**
 * The offline notice: the spec's text, word for word, where it applies (the browser has no network, or a request
 * got no answer at all, which may be the network too); ours when a proxy says the server is not reached.
 */
export const offlineText = (cause: OfflineCause | null): string =>
  cause === 'gateway' ? SERVER_UNREACHABLE : MESSAGES.OFFLINE;

// ---- the store: one per tab

type Listener = () => void;
let state: Connectivity = ONLINE;
const listeners = new Set<Listener>();
let retryTimer: ReturnType<typeof setTimeout> | undefined;
let checking = false;

const browserOnline = () => typeof navigator === 'undefined' || navigator.onLine !== false;

export const connectivity = (): Connectivity => state;

export function onConnectivity(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** Tells the store what happened; it schedules the next check while offline. */
export function reportConnectivity(event: ConnectivityEvent): void {
  const next = nextConnectivity(state, event, browserOnline());
  if (next === state) return;
  const wasOnline = state.online;
  const attemptChanged = next.attempt !== state.attempt;
  state = next;
  if (!next.online && (wasOnline || attemptChanged)) scheduleCheck();
  if (next.online) cancelCheck();
  listeners.forEach((l) => l());
}

function cancelCheck() {
  if (retryTimer !== undefined) clearTimeout(retryTimer);
  retryTimer = undefined;
}

function scheduleCheck() {
  cancelCheck();
  retryTimer = setTimeout(() => void checkNow(), retryDelayMs(state.attempt, Math.random()));
}

/**
 * Asks the server now (`GET /api/version`): offline mode ends when it answers, starts (or goes on, with a longer
 * pause) when it does not. "Try now" and a failed page chunk call it too.
 */
export async function checkNow(): Promise<boolean> {
  if (checking) return state.online;
  checking = true;
  let event: ConnectivityEvent;
  try {
    const base = window.settings?.apiBaseUrl ?? '/api/';
    const response = await fetch(new URL(`${base}version`, window.location.origin), { cache: 'no-store' });
    const body: unknown = response.ok ? undefined : await response.json().catch(() => undefined);
    event = isGatewayFailure(response.status, body) ? { type: 'gateway' } : { type: 'answered' };
  } catch {
    event = { type: 'no-answer' };
  } finally {
    checking = false;
  }
  if (event.type !== 'answered' && !state.online)
    event = { type: 'check-failed', gateway: event.type === 'gateway' };
  reportConnectivity(event);
  return state.online;
}

/**
 * Starts listening to the browser (offline, online, the tab coming into view) and the heartbeat. Returns the
 * stop; App calls it once.
 */
export function watchConnectivity(): () => void {
  const wentOffline = () => reportConnectivity({ type: 'browser-offline' });
  const cameOnline = () => {
    reportConnectivity({ type: 'browser-online' });
    void checkNow();
  };
  const inView = () => {
    if (document.visibilityState === 'visible') void checkNow();
  };
  if (!browserOnline()) wentOffline();
  window.addEventListener('offline', wentOffline);
  window.addEventListener('online', cameOnline);
  document.addEventListener('visibilitychange', inView);
  const heartbeat = setInterval(() => {
    if (state.online && document.visibilityState !== 'hidden') void checkNow();
  }, HEARTBEAT_MS);
  return () => {
    window.removeEventListener('offline', wentOffline);
    window.removeEventListener('online', cameOnline);
    document.removeEventListener('visibilitychange', inView);
    clearInterval(heartbeat);
    cancelCheck();
  };
}

/**
 * When offline mode ends, every query is fetched again (the active ones at once, the others when next shown): the
 * page carries on with what it shows, nothing reloads. Returns the stop.
 */
export function refetchOnRecovery(client: QueryClient): () => void {
  let recoveries = state.recoveries;
  return onConnectivity(() => {
    if (state.recoveries === recoveries) return;
    recoveries = state.recoveries;
    void client.invalidateQueries();
  });
}

/** Calls `callback` once the server answers (at once when it does now). Returns the cancel. */
export function whenOnline(callback: () => void): () => void {
  if (state.online) {
    callback();
    return () => undefined;
  }
  const stop = onConnectivity(() => {
    if (!state.online) return;
    stop();
    callback();
  });
  return stop;
}

/** Back to the start (tests). */
export function resetConnectivity(): void {
  cancelCheck();
  checking = false;
  state = ONLINE;
  listeners.forEach((l) => l());
}
