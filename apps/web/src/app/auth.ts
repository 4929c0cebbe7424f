import { UserManager, WebStorageStateStore, type User } from 'oidc-client-ts';
import { mayRedirectToLogin, parseLoginRedirects, recordLoginRedirect } from './access';
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
  const path = window.sessionStorage.getItem(REDIRECT_PATH_KEY) ?? '/';
  return path.startsWith('/') && !path.startsWith('//') ? path : '/';
}

export function takeRedirectPath(): string {
  const path = peekRedirectPath();
  window.sessionStorage.removeItem(REDIRECT_PATH_KEY);
  return path;
}

/** Forgets the remembered path (a 403: the path must not come back after the next sign-in). */
export function forgetRedirectPath(): void {
  window.sessionStorage.removeItem(REDIRECT_PATH_KEY);
}

/**
 * Sends the browser to sign-in, remembering where it was (the spec's rule for 401 and expiry), at most once
 * per path per minute: when a fresh sign-in is refused again, the page stays and says so instead of looping.
 * Returns whether it redirected.
 */
let leaving = false;
export function redirectToLogin(): boolean {
  // Several calls refused at once (or a second effect run): the first one already goes.
  if (leaving) return true;
  const path = window.location.pathname + window.location.search;
  const now = Date.now();
  const history = parseLoginRedirects(window.sessionStorage.getItem(LOGIN_REDIRECTS_KEY));
  if (!mayRedirectToLogin(history, path, now)) return false;
  window.sessionStorage.setItem(LOGIN_REDIRECTS_KEY, JSON.stringify(recordLoginRedirect(history, path, now)));
  rememberRedirectPath(path);
  leaving = true;
  window.location.assign('/login');
  return true;
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
