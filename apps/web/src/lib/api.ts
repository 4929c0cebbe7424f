import type { ApiError } from '@portal/contracts/errors';
import { forgetRedirectPath, redirectToLogin, userManager } from './auth';
import { isGatewayFailure, reportConnectivity } from './connectivity';
import { portalSettings } from './settings';

export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiError | undefined,
  ) {
    super(body?.message ?? `Request failed with status ${status}`);
  }
}

/**
 * The field messages of a refused request, under the form's own field names: `settings.ships.0` is the form's
 * `ships` when the body nests the form under `settings`. Null when the answer names no field.
 */
export function serverFieldErrors(cause: unknown, nestedUnder?: string): Record<string, string> | null {
  const fields = cause instanceof ApiRequestError ? cause.body?.fields : undefined;
  if (!fields) return null;
  const prefix = nestedUnder ? `${nestedUnder}.` : '';
  return Object.fromEntries(
    Object.entries(fields).map(([key, message]) => [
      (key.startsWith(prefix) ? key.slice(prefix.length) : key).replace(/\..*$/, ''),
      message,
    ]),
  );
}

/**
 * A refused read: `forbidden` (403: the signed-in user may not see this page) or `signed-out` (401 that did not
 * go to sign-in again, because this path went there less than a minute ago). The shell shows its view.
 */
export type AccessDenial = 'forbidden' | 'signed-out';
type DenialListener = (denial: AccessDenial, path: string) => void;
const denialListeners = new Set<DenialListener>();
export const onAccessDenied = (listener: DenialListener) => {
  denialListeners.add(listener);
  return () => {
    denialListeners.delete(listener);
  };
};
const reportDenial = (denial: AccessDenial) =>
  denialListeners.forEach((l) => l(denial, window.location.pathname));

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: Record<string, string | number | boolean | undefined | null>;
  body?: unknown;
  /** multipart uploads and other raw bodies */
  rawBody?: BodyInit;
  signal?: AbortSignal;
  responseType?: 'json' | 'blob' | 'none';
}

/**
 * Every API call: base address from settings, the bearer token, the offline rule (a request without an answer,
 * or a proxy's answer for the server, starts offline mode: connectivity.ts), and access failures: a 401 goes to
 * sign-in (once per path per minute), a 403 never does (decision 0060).
 */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const base = portalSettings().apiBaseUrl;
  const url = new URL(base + path.replace(/^\//, ''), window.location.origin);
  for (const [key, value] of Object.entries(options.query ?? {}))
    if (value !== undefined && value !== null) url.searchParams.set(key, String(value));
  const user = await userManager().getUser();
  const headers: Record<string, string> = {};
  if (user?.access_token) headers.authorization = `Bearer ${user.access_token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(url, {
      method: options.method ?? 'GET',
      headers,
      body: options.rawBody ?? (options.body !== undefined ? JSON.stringify(options.body) : undefined),
      signal: options.signal,
    });
  } catch (error) {
    if ((error as Error).name !== 'AbortError') reportConnectivity({ type: 'no-answer' });
    throw error;
  }
  // A proxy's 502, 503 or 504 instead of the portal's answer: the server is not reached either.
  if ([502, 503, 504].includes(response.status)) {
    const body: unknown = await response.json().catch(() => undefined);
    const gateway = isGatewayFailure(response.status, body);
    reportConnectivity({ type: gateway ? 'gateway' : 'answered' });
    throw new ApiRequestError(response.status, gateway ? undefined : (body as ApiError));
  }
  reportConnectivity({ type: 'answered' });
  if (response.status === 401) {
    if (!redirectToLogin()) reportDenial('signed-out');
    throw new ApiRequestError(response.status, await response.json().catch(() => undefined));
  }
  if (response.status === 403) {
    // Signing in again changes nothing: no redirect, and the remembered path must not come back later.
    forgetRedirectPath();
    // A refused read means the page cannot be shown; a refused change is the caller's error to show.
    if ((options.method ?? 'GET') === 'GET') reportDenial('forbidden');
    throw new ApiRequestError(response.status, await response.json().catch(() => undefined));
  }
  if (!response.ok) throw new ApiRequestError(response.status, await response.json().catch(() => undefined));
  if (options.responseType === 'blob') return (await response.blob()) as T;
  if (options.responseType === 'none' || response.status === 204) return undefined as T;
  return (await response.json()) as T;
}
