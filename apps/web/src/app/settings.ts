import type { PortalSettings } from '@portal/contracts/environment';

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
