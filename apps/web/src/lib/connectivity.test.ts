import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '@portal/contracts/rules';
import {
  connectivity,
  isGatewayFailure,
  nextConnectivity,
  offlineText,
  ONLINE,
  reportConnectivity,
  resetConnectivity,
  retryDelayMs,
  SERVER_UNREACHABLE,
  whenOnline,
  type Connectivity,
} from './connectivity';

describe('the pause before the next check while offline', () => {
  it('doubles from 1 s and stays at the spec’s 10 s poll', () => {
    expect([0, 1, 2, 3, 4, 5, 30, 1000].map((a) => retryDelayMs(a))).toEqual([
      1_000, 2_000, 4_000, 8_000, 10_000, 10_000, 10_000, 10_000,
    ]);
  });

  it('is at most a fifth shorter with jitter, never longer', () => {
    expect(retryDelayMs(0, 0.999)).toBe(800);
    expect(retryDelayMs(5, 0.5)).toBe(9_000);
    expect(retryDelayMs(5, 7)).toBe(8_000);
    expect(retryDelayMs(-3)).toBe(1_000);
  });
});

describe("a proxy's answer for the server", () => {
  it('is a 502, 503 or 504 without the portal’s error body', () => {
    expect(isGatewayFailure(502, undefined)).toBe(true);
    expect(isGatewayFailure(504, '<html>Gateway Time-out</html>')).toBe(true);
    expect(isGatewayFailure(503, { error: 'no healthy upstream' })).toBe(true);
  });

  it('is the portal’s own 503 too: it is starting or stopping, not back yet', () => {
    expect(isGatewayFailure(503, { code: 'UNAVAILABLE', message: 'The portal is starting' })).toBe(true);
  });

  it('is not the portal’s own 502/504-less answers, or any other status', () => {
    expect(isGatewayFailure(502, { code: 'INTERNAL', message: 'Something went wrong' })).toBe(false);
    for (const status of [200, 400, 401, 403, 404, 429, 500])
      expect(isGatewayFailure(status, undefined)).toBe(false);
  });
});

describe('offline mode, as events arrive', () => {
  const run = (events: Parameters<typeof nextConnectivity>[1][], browserOnline = true): Connectivity =>
    events.reduce((s, e) => nextConnectivity(s, e, browserOnline), ONLINE);

  it('starts on a request without an answer, on a proxy answering for the server, and on the browser', () => {
    expect(run([{ type: 'no-answer' }])).toMatchObject({ online: false, cause: 'no-answer', attempt: 0 });
    expect(run([{ type: 'gateway' }])).toMatchObject({ online: false, cause: 'gateway' });
    expect(run([{ type: 'browser-offline' }])).toMatchObject({ online: false, cause: 'browser' });
    // A request without an answer while the browser says it has no network: the browser's cause.
    expect(run([{ type: 'no-answer' }], false)).toMatchObject({ online: false, cause: 'browser' });
  });

  it('counts the failed checks, and ends with a recovery when the server answers', () => {
    const down = run([
      { type: 'gateway' },
      { type: 'check-failed', gateway: true },
      { type: 'check-failed', gateway: false },
    ]);
    expect(down).toMatchObject({ online: false, cause: 'no-answer', attempt: 2, recoveries: 0 });
    expect(nextConnectivity(down, { type: 'answered' }, true)).toEqual({
      online: true,
      cause: null,
      attempt: 0,
      recoveries: 1,
    });
  });

  it('stays offline while the browser says so, even when an answer sent before arrives late', () => {
    const down = run([{ type: 'browser-offline' }], false);
    expect(nextConnectivity(down, { type: 'answered' }, false)).toBe(down);
  });

  it('asks again from the shortest pause when the browser is back on the network', () => {
    const down = run([{ type: 'browser-offline' }, { type: 'check-failed', gateway: false }], false);
    expect(down.attempt).toBe(1);
    expect(nextConnectivity(down, { type: 'browser-online' }, true)).toMatchObject({
      online: false,
      attempt: 0,
    });
  });

  it('changes nothing online for answers and checks', () => {
    expect(nextConnectivity(ONLINE, { type: 'answered' }, true)).toBe(ONLINE);
    expect(nextConnectivity(ONLINE, { type: 'check-failed', gateway: true }, true)).toBe(ONLINE);
    expect(nextConnectivity(ONLINE, { type: 'browser-online' }, true)).toBe(ONLINE);
  });

  it("says so in the spec's words where they apply, in ours when a proxy says the server is not reached", () => {
    expect(offlineText('browser')).toBe(MESSAGES.OFFLINE);
    expect(offlineText('no-answer')).toBe(MESSAGES.OFFLINE);
    expect(offlineText('gateway')).toBe(SERVER_UNREACHABLE);
    expect(SERVER_UNREACHABLE).toContain('unsaved changes');
  });
});

describe('the store', () => {
  let up = false;
  let gateway = false;
  const versionCalls: number[] = [];
  const started = Date.now();

  beforeEach(() => {
    up = false;
    gateway = false;
    versionCalls.length = 0;
    vi.useFakeTimers({ now: started });
    vi.spyOn(Math, 'random').mockReturnValue(0);
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        versionCalls.push(Date.now() - started);
        if (gateway) return new Response('<html>Bad Gateway</html>', { status: 502 });
        if (!up) throw new TypeError('Failed to fetch');
        return new Response(JSON.stringify({ version: '1', build: 'x' }), { status: 200 });
      }),
    );
  });
  afterEach(() => {
    resetConnectivity();
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('asks the server after 1, 2, 4, 8 and then every 10 s, and ends offline mode when it answers', async () => {
    reportConnectivity({ type: 'no-answer' });
    expect(connectivity().online).toBe(false);
    await vi.advanceTimersByTimeAsync(45_000);
    expect(versionCalls).toEqual([1_000, 3_000, 7_000, 15_000, 25_000, 35_000, 45_000]);
    up = true;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(connectivity()).toMatchObject({ online: true, recoveries: 1 });
    // Online: no more checks from offline mode.
    const calls = versionCalls.length;
    await vi.advanceTimersByTimeAsync(20_000);
    expect(versionCalls.length).toBe(calls);
  });

  it('takes a proxy’s 502 to a check as the server not reached, and says which', async () => {
    gateway = true;
    reportConnectivity({ type: 'gateway' });
    await vi.advanceTimersByTimeAsync(3_000);
    expect(connectivity()).toMatchObject({ online: false, cause: 'gateway', attempt: 2 });
  });

  it('runs what waits for the server once it answers', async () => {
    const callback = vi.fn();
    reportConnectivity({ type: 'no-answer' });
    whenOnline(callback);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(callback).not.toHaveBeenCalled();
    up = true;
    await vi.advanceTimersByTimeAsync(4_000);
    expect(callback).toHaveBeenCalledTimes(1);
    reportConnectivity({ type: 'no-answer' });
    await vi.advanceTimersByTimeAsync(2_000);
    expect(callback).toHaveBeenCalledTimes(1);
  });
});
