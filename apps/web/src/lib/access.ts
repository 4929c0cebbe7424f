import type { Role } from '@portal/contracts/rules';

/**
 * Who may open which screen, and when the browser goes to sign-in (docs/decisions/0060-access-failures.md).
 * Pure rules: the route table (shell/router.tsx) names the roles of a route in its `handle`; the shell asks
 * `mayOpen` before it renders the page, so a screen whose calls the API refuses is never shown.
 */

/** Configuration of ships and reports, the organizations and the messages: SystemAdmin (decision 0004). */
export const SYSTEM_ADMIN_ONLY: readonly Role[] = ['SystemAdmin'];
/** Administration of an organization's users and access: SystemAdmin and UserAdmin. */
export const ADMINISTRATORS: readonly Role[] = ['SystemAdmin', 'UserAdmin'];

/** A verifier's seat (docs/decisions/0115-verifier.md): the verification, read by the organization's administrators. */
export const VERIFICATION_READERS: readonly Role[] = ['Verifier', 'SystemAdmin', 'UserAdmin'];
/** Every role but Verifier: the fleet's screens, which a verifier does not use (the API refuses it their reads). */
export const FLEET_ROLES: readonly Role[] = ['SystemAdmin', 'UserAdmin', 'User'];

/** What a route of the table may carry in its `handle`. */
export interface RouteAccess {
  roles?: readonly Role[];
}

/** The roles a matched route chain requires: every level's list must admit the user (a child cannot widen). */
export function requiredRoles(matches: readonly { handle?: unknown }[]): (readonly Role[])[] {
  return matches
    .map((m) => (m.handle as RouteAccess | undefined)?.roles)
    .filter((roles): roles is readonly Role[] => Array.isArray(roles));
}

/** Whether a user with `roles` may open a route whose levels require `required` (no requirement: everyone). */
export function mayOpen(roles: readonly Role[], required: readonly (readonly Role[])[]): boolean {
  return required.every((allowed) => allowed.some((role) => roles.includes(role)));
}

// ---- sign-in redirects

/** A path sends the browser to sign-in at most once in this window (a fresh sign-in that is refused again stops). */
export const LOGIN_REDIRECT_WINDOW_MS = 60_000;

/** When each path last went to sign-in (epoch ms). */
export type LoginRedirects = Record<string, number>;

/** Whether `path` may go to sign-in now: not when it went there less than a minute ago. */
export function mayRedirectToLogin(history: LoginRedirects, path: string, now: number): boolean {
  const last = history[path];
  return last === undefined || now - last >= LOGIN_REDIRECT_WINDOW_MS || now < last;
}

/** The history after a redirect of `path` at `now`, without entries older than the window. */
export function recordLoginRedirect(history: LoginRedirects, path: string, now: number): LoginRedirects {
  const kept = Object.entries(history).filter(([, at]) => now - at < LOGIN_REDIRECT_WINDOW_MS && at <= now);
  return { ...Object.fromEntries(kept), [path]: now };
}

/** Reads a stored history; anything malformed counts as empty. */
export function parseLoginRedirects(stored: string | null): LoginRedirects {
  if (!stored) return {};
  try {
    const value: unknown = JSON.parse(stored);
    if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
    return Object.fromEntries(
      Object.entries(value).filter((e): e is [string, number] => typeof e[1] === 'number'),
    );
  } catch {
    return {};
  }
}

// ---- where sign-in returns to

/** Pages of the server, not of the web app: sign-in never returns to them. */
const NOT_RETURNABLE = /^\/(login|logoff|interaction|oidc|api)(\/|$)/;

/**
 * The page sign-in may return to: a path of this origin (with its query and hash), or null. It comes through the
 * address bar (`/login?returnTo=`) and the identity provider's round trip, so anything that could lead elsewhere
 * is refused (no open redirect): an absolute or protocol-relative address (`https://…`, `//…`), a backslash
 * (browsers read `/\host` as `//host`), control characters (the URL parser drops tabs and newlines, so `/\t/host`
 * would become `//host`), and the sign-in pages themselves (a loop).
 */
export function safeReturnPath(candidate: unknown, origin: string): string | null {
  if (typeof candidate !== 'string' || candidate.length === 0 || candidate.length > 2_000) return null;
  if (!candidate.startsWith('/') || candidate.startsWith('//') || candidate.includes('\\')) return null;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(candidate)) return null;
  let url: URL;
  try {
    url = new URL(candidate, origin);
    if (url.origin !== new URL(origin).origin) return null;
  } catch {
    return null;
  }
  if (NOT_RETURNABLE.test(url.pathname)) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The sign-in address that returns to `path` afterwards (`/login` alone for the fleet dashboard). */
export function loginAddress(path: string, origin: string): string {
  const returnTo = safeReturnPath(path, origin);
  return returnTo && returnTo !== '/' ? `/login?${new URLSearchParams({ returnTo })}` : '/login';
}

// ---- the portal's address

/**
 * Where the portal should be opened when this page runs at another origin than the public address (the
 * identity provider and the content security policy only work there), or null when the origin is right.
 */
export function portalAddressElsewhere(currentHref: string, publicUrl: string | undefined): string | null {
  if (!publicUrl) return null;
  try {
    const current = new URL(currentHref);
    const wanted = new URL(publicUrl);
    if (current.origin === wanted.origin) return null;
    // The sign-in pages' own addresses mean nothing elsewhere: start at the portal's home then.
    if (/^\/(login|logoff|interaction|oidc)(\/|$)/.test(current.pathname)) return `${wanted.origin}/`;
    return `${wanted.origin}${current.pathname}${current.search}${current.hash}`;
  } catch {
    return null;
  }
}
