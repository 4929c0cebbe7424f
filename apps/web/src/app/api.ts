import type { ApiError } from '@portal/contracts/errors';
import { redirectToLogin, userManager } from './auth';
import { portalSettings } from './settings';

export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiError | undefined,
  ) {
    super(body?.message ?? `Request failed with status ${status}`);
  }
}

type Listener = (online: boolean) => void;
const connectivityListeners = new Set<Listener>();
export const onConnectivityChange = (listener: Listener) => {
  connectivityListeners.add(listener);
  return () => {
    connectivityListeners.delete(listener);
  };
};
const reportConnectivity = (online: boolean) => connectivityListeners.forEach((l) => l(online));

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: Record<string, string | number | boolean | undefined | null>;
  body?: unknown;
  /** multipart uploads and other raw bodies */
  rawBody?: BodyInit;
  signal?: AbortSignal;
  responseType?: 'json' | 'blob' | 'none';
}

/** Every API call: base address from settings, the bearer token, the spec's 401/403 and offline rules. */
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
    if ((error as Error).name !== 'AbortError') reportConnectivity(false);
    throw error;
  }
  reportConnectivity(true);
  if (response.status === 401 || response.status === 403) {
    redirectToLogin();
    throw new ApiRequestError(response.status, await response.json().catch(() => undefined));
  }
  if (!response.ok) throw new ApiRequestError(response.status, await response.json().catch(() => undefined));
  if (options.responseType === 'blob') return (await response.blob()) as T;
  if (options.responseType === 'none' || response.status === 204) return undefined as T;
  return (await response.json()) as T;
}
