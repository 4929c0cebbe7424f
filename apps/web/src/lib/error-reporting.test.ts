import { afterEach, describe, expect, it, vi } from 'vitest';
import { reportClientError, shouldReport } from './error-reporting';

describe('browser error reporting', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    delete window.settings;
  });

  it('keeps a share of the traces equal to the sample rate', () => {
    expect(shouldReport(0.29, 0.3)).toBe(true);
    expect(shouldReport(0.3, 0.3)).toBe(false);
    expect(shouldReport(0.99, 1)).toBe(true);
    expect(shouldReport(0, 0)).toBe(false);
  });

  it('posts a sampled error once to the API', () => {
    window.settings = { traceSampleRate: 1 } as never;
    const fetchMock = vi.fn().mockResolvedValue(new Response(null, { status: 204 }));
    vi.stubGlobal('fetch', fetchMock);
    reportClientError(new Error('chart failed'), '/ship/1');
    reportClientError(new Error('chart failed'), '/ship/1');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/client-errors');
    expect(JSON.parse(init.body)).toMatchObject({ message: 'chart failed', url: '/ship/1' });
  });

  it('sends nothing when the sample says no', () => {
    window.settings = { traceSampleRate: 0 } as never;
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    reportClientError(new Error('another failure'), '/');
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
