import { portalSettingsSchema, type PortalSettings } from '@portal/contracts/environment';

declare global {
  interface Window {
    settings?: PortalSettings;
  }
}

/** The settings the server put in /settings.js (loaded before the app). */
export function portalSettings(): PortalSettings {
  const settings = window.settings;
  if (!settings) throw new Error('settings.js did not load');
  return settings;
}

const PREFIX = /^\s*window\.settings\s*=\s*/;

/**
 * The settings of a freshly fetched /settings.js. The script is never evaluated: it is our server's
 * `window.settings = {json};`, so the JSON after the assignment is parsed and checked. Null when it is not that.
 */
export function parseSettingsScript(script: string): PortalSettings | null {
  if (!PREFIX.test(script)) return null;
  const json = script.replace(PREFIX, '').trim().replace(/;$/, '');
  try {
    const result = portalSettingsSchema.safeParse(JSON.parse(json));
    return result.success ? result.data : null;
  } catch {
    return null;
  }
}

/** GET /settings.js as text and parsed (null when unreachable or malformed). */
export async function fetchSettings(): Promise<PortalSettings | null> {
  const response = await fetch('/settings.js', { cache: 'no-store' });
  if (!response.ok) return null;
  return parseSettingsScript(await response.text());
}
