import { QueryClient } from '@tanstack/react-query';

/**
 * The query cache of the app (shell/App.tsx) and of the component tests (ui/testing/render.tsx), with the same
 * defaults. networkMode 'always': with the browser offline a request fails (offline mode starts) instead of waiting
 * unseen with its skeleton on screen; the offline mode (connectivity.ts), not TanStack Query, decides when to try
 * again, and fetches every query again when the server answers. `retry`: once in the app, never in a test (a test
 * says what the server answers, once).
 */
export function createQueryClient({ retry = 1 }: { retry?: number } = {}): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry, refetchOnWindowFocus: false, staleTime: 30_000, networkMode: 'always' },
      mutations: { networkMode: 'always' },
    },
  });
}
