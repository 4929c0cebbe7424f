import { UserManager, WebStorageStateStore, type User } from 'oidc-client-ts';
import {
  loginAddress,
  mayRedirectToLogin,
  parseLoginRedirects,
  recordLoginRedirect,
  safeReturnPath,
} from './access';
import { portalSettings } from './settings';

const REDIRECT_PATH_KEY = 'portal.redirectPath';
const LOGIN_REDIRECTS_KEY = 'portal.loginRedirects';

let manager: UserManager | undefined;

/** The OpenID Connect client: code flow with PKCE, tokens renewed silently with the refresh token. */
export function userManager(): UserManager {
  if (manager) return manager;
  const { oidc } = portalSettings();
  manager = new UserManager({
    authority: oidc.authority,
    client_id: oidc.clientId,
    redirect_uri: `${window.location.origin}/login`,
    post_logout_redirect_uri: `${window.location.origin}/login`,
    scope: oidc.scope,
    response_type: 'code',
    automaticSilentRenew: true,
    userStore: new WebStorageStateStore({ store: window.sessionStorage }),
  });
  return manager;
}

export function rememberRedirectPath(path: string): void {
  if (path.startsWith('/login') || path.startsWith('/logoff')) return;
  window.sessionStorage.setItem(REDIRECT_PATH_KEY, path);
}

/** The remembered path (or /), left in place. */
export function peekRedirectPath(): string {
  return safeReturnPath(window.sessionStorage.getItem(REDIRECT_PATH_KEY), window.location.origin) ?? '/';
}

/** Forgets the remembered path (a 403: the path must not come back after the next sign-in). */
export function forgetRedirectPath(): void {
  window.sessionStorage.removeItem(REDIRECT_PATH_KEY);
}

/**
 * Sends the browser to sign-in, remembering where it was (the spec's rule for 401 and expiry: in the address,
 * `/login?returnTo=`, which the sign-in carries in its `state`, and in this tab), at most once per path per minute: when a fresh sign-in is refused again, the page stays and says so instead of looping.
 * Returns whether it redirected.
 */
let leaving = false;
export function redirectToLogin(): boolean {
  // Several calls refused at once (or a second effect run): the first one already goes.
  if (leaving) return true;
  const path = window.location.pathname + window.location.search + window.location.hash;
  const now = Date.now();
  const history = parseLoginRedirects(window.sessionStorage.getItem(LOGIN_REDIRECTS_KEY));
  if (!mayRedirectToLogin(history, path, now)) return false;
  window.sessionStorage.setItem(LOGIN_REDIRECTS_KEY, JSON.stringify(recordLoginRedirect(history, path, now)));
  rememberRedirectPath(path);
  leaving = true;
  window.location.assign(loginAddress(path, window.location.origin));
  return true;
}

/** Goes to sign-in now, to come back to `path` (the "Sign in again" button). */
export function signInAgain(path: string): void {
  rememberRedirectPath(path);
  window.location.assign(loginAddress(path, window.location.origin));
}

/**
 * Where /login sends the browser after the provider's round trip: the path carried in the sign-in's `state`
 * (it started from `/login?returnTo=`, so it survives a tab whose session storage is gone), else the path this
 * tab remembered, else /. Only a path of this origin (`safeReturnPath`).
 */
export function returnPathAfterSignIn(state: unknown): string {
  const carried = (state as { returnTo?: unknown } | null | undefined)?.returnTo;
  const path = safeReturnPath(carried, window.location.origin) ?? peekRedirectPath();
  forgetRedirectPath();
  return path;
}

/** The path to carry through sign-in, from `/login?returnTo=` or this tab's memory. */
export function returnPathBeforeSignIn(search: string): string {
  return (
    safeReturnPath(new URLSearchParams(search).get('returnTo'), window.location.origin) ?? peekRedirectPath()
  );
}

/**
 * Forgets the sign-in redirects of this tab: a deliberate sign-out starts afresh, so signing in again (as the
 * same or another user) within the minute is not taken for a refused sign-in.
 */
export function forgetLoginRedirects(): void {
  window.sessionStorage.removeItem(LOGIN_REDIRECTS_KEY);
  forgetRedirectPath();
}

export const isExpired = (user: User | null | undefined) => !user || user.expired === true;
