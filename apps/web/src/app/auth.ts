import { UserManager, WebStorageStateStore, type User } from 'oidc-client-ts';
import { portalSettings } from './settings';

const REDIRECT_PATH_KEY = 'portal.redirectPath';

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

export function takeRedirectPath(): string {
  const path = window.sessionStorage.getItem(REDIRECT_PATH_KEY) ?? '/';
  window.sessionStorage.removeItem(REDIRECT_PATH_KEY);
  return path.startsWith('/') && !path.startsWith('//') ? path : '/';
}

/** Sends the browser to sign-in, remembering where it was (the spec's rule for 401/403 and expiry). */
export function redirectToLogin(): void {
  rememberRedirectPath(window.location.pathname + window.location.search);
  window.location.assign('/login');
}

export const isExpired = (user: User | null | undefined) => !user || user.expired === true;
