import type { VersionInfo } from '@portal/contracts/environment';

/**
 * The build this tab runs and the one the server serves now: the update notification and the one automatic
 * reload after a failed page chunk (decision 0060).
 */

const RELOADED_FOR_KEY = 'portal.reloadedForVersion';

const versionKey = (v: VersionInfo) => `${v.version}+${v.build}`;

/** Whether the served version differs from the loaded one (unknown on either side: no). */
export function isNewVersion(loaded: VersionInfo | null | undefined, served: VersionInfo | null | undefined) {
  return Boolean(loaded && served && versionKey(loaded) !== versionKey(served));
}

/**
 * Whether a failed chunk should reload the page by itself: only when a new version is served and the tab has not
 * already reloaded for that version (a second failure after the reload shows the notice and stays).
 */
export function shouldReloadForVersion(
  loaded: VersionInfo | null | undefined,
  served: VersionInfo | null | undefined,
  alreadyReloadedFor: string | null,
): boolean {
  return isNewVersion(loaded, served) && alreadyReloadedFor !== versionKey(served!);
}

let firstSeen: VersionInfo | null = null;

/** The version served when this page loaded (settings.js is read with index.html), else the first answer seen. */
export function loadedVersion(): VersionInfo | null {
  return window.settings?.version ?? firstSeen;
}

/** GET version, never from a cache; null when the server does not answer it. */
export async function fetchServedVersion(): Promise<VersionInfo | null> {
  const base = window.settings?.apiBaseUrl ?? '/api/';
  const response = await fetch(new URL(`${base}version`, window.location.origin), { cache: 'no-store' });
  if (!response.ok) return null;
  const served = (await response.json()) as VersionInfo;
  firstSeen ??= served;
  return served;
}

/** After a failed page chunk: reloads once when a new version is served. Returns whether it reloads. */
export async function reloadIfNewVersion(
  reload: () => void = () => window.location.reload(),
): Promise<boolean> {
  const served = await fetchServedVersion().catch(() => null);
  if (!shouldReloadForVersion(loadedVersion(), served, window.sessionStorage.getItem(RELOADED_FOR_KEY)))
    return false;
  window.sessionStorage.setItem(RELOADED_FOR_KEY, versionKey(served!));
  reload();
  return true;
}

/** A failed dynamic import (a page chunk that did not load): browsers word it differently. */
export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return /dynamically imported module|Importing a module script failed|error loading dynamically imported|Unable to preload CSS|Failed to load module script/i.test(
    error.message,
  );
}
