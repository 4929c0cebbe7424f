import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { MESSAGES } from '@portal/contracts/rules';
import { apiRequest } from '../lib/api';
import { resetConnectivity, SERVER_UNREACHABLE } from '../lib/connectivity';
import { useNotify } from '../lib/notifications';
import { testSettings } from '../ui/testing/render';
import { RECONNECTED_NOTICE_MS, ServerNotices } from './ServerNotices';

let serverUp = true;
let proxied = false;
let build = 'abc';
const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
  if (!serverUp && proxied) return new Response('<html>502 Bad Gateway</html>', { status: 502 });
  if (!serverUp) throw new TypeError('Failed to fetch');
  const url = String(input);
  const body = url.endsWith('/api/version') ? { version: '1.6.7', build } : [];
  return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
});

function Probe() {
  const { notify } = useNotify();
  return (
    <>
      <button onClick={() => void apiRequest('facilities').catch(() => undefined)}>load</button>
      <button onClick={() => notify('Saved the ship')}>notify</button>
    </>
  );
}

beforeEach(() => {
  serverUp = true;
  proxied = false;
  build = 'abc';
  vi.useFakeTimers();
  vi.stubGlobal('fetch', fetchMock);
  window.settings = testSettings();
});
afterEach(() => {
  cleanup();
  resetConnectivity();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const flush = () => act(async () => void (await vi.advanceTimersByTimeAsync(0)));
/** Lets a closed snackbar's exit transition end. */
const transitionsEnd = () => act(async () => void (await vi.advanceTimersByTimeAsync(500)));

describe('offline mode', () => {
  it('starts when a request fails without a response, asks the version again with a growing pause, then shows Connection established; nothing reloads', async () => {
    const reload = vi.fn();
    render(
      <ServerNotices reload={reload}>
        <Probe />
      </ServerNotices>,
    );
    await flush();
    serverUp = false;
    await act(async () => screen.getByText('load').click());
    await flush();
    expect(screen.getByText(MESSAGES.OFFLINE)).toBeTruthy();

    // No notifications while offline.
    await act(async () => screen.getByText('notify').click());
    expect(screen.queryByText('Saved the ship')).toBeNull();

    // Still down at the first checks (after at most 1, 2, 4 s).
    await act(async () => void (await vi.advanceTimersByTimeAsync(7_000)));
    expect(screen.queryByText(MESSAGES.CONNECTION_ESTABLISHED)).toBeNull();

    serverUp = true;
    const versionCalls = fetchMock.mock.calls.length;
    await act(async () => void (await vi.advanceTimersByTimeAsync(8_000)));
    expect(fetchMock.mock.calls.length).toBe(versionCalls + 1);
    expect(String(fetchMock.mock.calls.at(-1)![0])).toMatch(/\/api\/version$/);
    expect(screen.getByText(MESSAGES.CONNECTION_ESTABLISHED)).toBeTruthy();
    await transitionsEnd();
    expect(screen.queryByText(MESSAGES.OFFLINE)).toBeNull();
    await act(async () => void (await vi.advanceTimersByTimeAsync(RECONNECTED_NOTICE_MS)));
    await transitionsEnd();
    expect(screen.queryByText(MESSAGES.CONNECTION_ESTABLISHED)).toBeNull();
    expect(reload).not.toHaveBeenCalled();
    // Notifications show again.
    await act(async () => screen.getByText('notify').click());
    expect(screen.getByText('Saved the ship')).toBeTruthy();
  });

  it("says the portal's server is not reached when a proxy answers for it, and Try now asks at once", async () => {
    render(
      <ServerNotices reload={vi.fn()}>
        <Probe />
      </ServerNotices>,
    );
    await flush();
    serverUp = false;
    proxied = true;
    await act(async () => screen.getByText('load').click());
    await flush();
    expect(screen.getByTestId('offline').textContent).toContain(SERVER_UNREACHABLE);
    expect(screen.queryByText(MESSAGES.OFFLINE)).toBeNull();
    serverUp = true;
    await act(async () => screen.getByRole('button', { name: 'Try now' }).click());
    await flush();
    expect(screen.getByText(MESSAGES.CONNECTION_ESTABLISHED)).toBeTruthy();
  });

  it('stays offline while the browser reports offline, even when an answer sent before arrives late', async () => {
    const reload = vi.fn();
    const onLine = vi.spyOn(navigator, 'onLine', 'get');
    render(
      <ServerNotices reload={reload}>
        <Probe />
      </ServerNotices>,
    );
    await flush();
    onLine.mockReturnValue(false);
    await act(async () => void window.dispatchEvent(new Event('offline')));
    expect(screen.getByText(MESSAGES.OFFLINE)).toBeTruthy();
    // A request that was under way when the link went down gets its answer now (the server was reached before).
    await act(async () => screen.getByText('load').click());
    await flush();
    await act(async () => void (await vi.advanceTimersByTimeAsync(10_000)));
    // Ending offline mode now would be wrong: the browser has no network.
    expect(screen.queryByText(MESSAGES.CONNECTION_ESTABLISHED)).toBeNull();
    expect(screen.getByText(MESSAGES.OFFLINE)).toBeTruthy();
    await act(async () => void (await vi.advanceTimersByTimeAsync(5_000)));
    expect(reload).not.toHaveBeenCalled();
    // The browser is back: the version answers at once, Connection established.
    onLine.mockReturnValue(true);
    await act(async () => void window.dispatchEvent(new Event('online')));
    await flush();
    expect(screen.getByText(MESSAGES.CONNECTION_ESTABLISHED)).toBeTruthy();
    await transitionsEnd();
    expect(screen.queryByText(MESSAGES.OFFLINE)).toBeNull();
    expect(reload).not.toHaveBeenCalled();
    onLine.mockRestore();
  });

  it('shows notifications while online, and the default error text', async () => {
    function Errors() {
      const { error } = useNotify();
      return <button onClick={() => error()}>fail</button>;
    }
    render(
      <ServerNotices reload={vi.fn()}>
        <Errors />
      </ServerNotices>,
    );
    await act(async () => screen.getByText('fail').click());
    expect(screen.getByTestId('notification').textContent).toBe('Something went wrong! Please try again');
  });
});

describe('a notification with an action', () => {
  it('shows its button (Undo) beside a close button; pressing it closes the notification and runs the action', async () => {
    const undo = vi.fn();
    function Saved() {
      const { success } = useNotify();
      return (
        <button
          onClick={() => success(undefined, { persistent: true, action: { label: 'Undo', onClick: undo } })}
        >
          save
        </button>
      );
    }
    render(
      <ServerNotices reload={vi.fn()}>
        <Saved />
      </ServerNotices>,
    );
    await act(async () => screen.getByText('save').click());
    expect(screen.getByTestId('notification').textContent).toContain(MESSAGES.DEFAULT_SUCCESS);
    // Persistent: still there after the usual 5 s, so there is time to undo.
    await act(async () => void (await vi.advanceTimersByTimeAsync(6_000)));
    expect(screen.getByRole('button', { name: 'Close' })).toBeTruthy();
    await act(async () => screen.getByRole('button', { name: 'Undo' }).click());
    expect(undo).toHaveBeenCalledTimes(1);
    await act(async () => void (await vi.advanceTimersByTimeAsync(1_000)));
    expect(screen.queryByRole('button', { name: 'Undo' })).toBeNull();
  });
});

describe('update notification', () => {
  it('appears when the served build differs from the one loaded at start', async () => {
    render(
      <ServerNotices reload={vi.fn()}>
        <Probe />
      </ServerNotices>,
    );
    await flush();
    await act(async () => void (await vi.advanceTimersByTimeAsync(300_000)));
    expect(screen.queryByTestId('update-available')).toBeNull();
    build = 'def';
    await act(async () => void (await vi.advanceTimersByTimeAsync(300_000)));
    expect(screen.getByTestId('update-available').textContent).toContain('A new version is available');
  });
});
