import { portalSettings } from './settings';

const reported = new Set<string>();

/** Whether this error's trace is kept: the settings' sample rate (0.3 by default), decided once per error. */
export function shouldReport(random: number, sampleRate: number): boolean {
  return random < sampleRate;
}

/** Sends errors of the browser to the API (POST /api/client-errors), where they are logged and stored. */
export function reportClientError(error: unknown, url = window.location.pathname): void {
  const err = error instanceof Error ? error : new Error(String(error));
  const key = `${err.message}|${url}`;
  if (reported.has(key)) return;
  reported.add(key);
  let sampleRate = 0.3;
  try {
    sampleRate = portalSettings().traceSampleRate;
  } catch {
    // settings.js did not load: keep the default rate
  }
  if (!shouldReport(Math.random(), sampleRate)) return;
  void fetch('/api/client-errors', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      message: err.message.slice(0, 2000),
      stack: err.stack?.slice(0, 10000),
      url: url.slice(0, 2000),
    }),
    keepalive: true,
  }).catch(() => undefined);
}

export function installErrorReporting(): void {
  window.addEventListener('error', (event) => reportClientError(event.error ?? event.message));
  window.addEventListener('unhandledrejection', (event) => reportClientError(event.reason));
}
