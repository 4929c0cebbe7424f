import { useSyncExternalStore } from 'react';

/** The remembered current report of the configurator (the Editor tab opens it); kept for the browser session. */
const KEY = 'portal.currentReport';
const listeners = new Set<() => void>();

export function rememberReport(id: string): void {
  sessionStorage.setItem(KEY, id);
  listeners.forEach((l) => l());
}

export function rememberedReport(): string | null {
  return sessionStorage.getItem(KEY);
}

export function useRememberedReport(): string | null {
  return useSyncExternalStore((listener) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  }, rememberedReport);
}
