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

/**
 * Shows on the page's root element how many queries and mutations of `client` are running or waiting to retry
 * (`data-fetching`, "0" when none): the barrier the browser tests wait on to know that the app has answered
 * everything it asked (e2e/support.ts, `watchActivity`), instead of watching a window of time.
 */
export function exposeActivity(
  client: QueryClient,
  root: HTMLElement = document.documentElement,
): () => void {
  const show = () => {
    root.dataset.fetching = String(client.isFetching() + client.isMutating());
  };
  show();
  const unsubscribeQueries = client.getQueryCache().subscribe(show);
  const unsubscribeMutations = client.getMutationCache().subscribe(show);
  return () => {
    unsubscribeQueries();
    unsubscribeMutations();
  };
}
