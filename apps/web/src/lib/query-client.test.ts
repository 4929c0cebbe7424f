import { describe, expect, it } from 'vitest';
import { createQueryClient, exposeActivity } from './query-client';

describe('the activity the browser tests wait on', () => {
  it('counts a query while it runs and while it waits to retry, and shows 0 once it has answered', async () => {
    const client = createQueryClient({ retry: 1 });
    const root = document.createElement('div');
    const stop = exposeActivity(client, root);
    expect(root.dataset.fetching).toBe('0');
    let answer!: (value: string) => void;
    const fetched = client.fetchQuery({
      queryKey: ['q'],
      queryFn: () => new Promise<string>((resolve) => (answer = resolve)),
    });
    await expect.poll(() => root.dataset.fetching).toBe('1');
    answer('done');
    await expect(fetched).resolves.toBe('done');
    expect(root.dataset.fetching).toBe('0');

    // A refused first try waits for its retry: still busy until the retry has answered.
    let tries = 0;
    const retried = client.fetchQuery({
      queryKey: ['r'],
      retry: 1,
      retryDelay: 0,
      queryFn: () => (++tries === 1 ? Promise.reject(new Error('refused')) : Promise.resolve(tries)),
    });
    expect(root.dataset.fetching).toBe('1');
    await expect(retried).resolves.toBe(2);
    expect(root.dataset.fetching).toBe('0');
    stop();
  });

  it('counts a running mutation', async () => {
    const client = createQueryClient();
    const root = document.createElement('div');
    exposeActivity(client, root);
    let finish!: () => void;
    const running = client
      .getMutationCache()
      .build(client, { mutationFn: () => new Promise<void>((resolve) => (finish = resolve)) })
      .execute(undefined);
    await expect.poll(() => root.dataset.fetching).toBe('1');
    finish();
    await running;
    expect(root.dataset.fetching).toBe('0');
  });
});
