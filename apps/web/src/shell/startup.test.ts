import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { REPORT_CODES } from '@portal/contracts/reports';
import { COOKIE_CONSENT_KEY } from './cookie-consent';
import { FLEET_FILTER_STORAGE_KEY } from '../lib/fleet-context';
import { signInForTest, signOutForTest, testSettings } from '../ui/testing/render';
import { startFirstRequests } from './startup';

/** Requests as the server sees them; none is answered until the test says so. */
let requested: string[];
/** The whole URL of the reports call. */
let reportsCall: string | undefined;
let answerAll: () => void;

beforeEach(async () => {
  requested = [];
  localStorage.clear();
  localStorage.setItem(COOKIE_CONSENT_KEY, 'true');
  window.settings = testSettings();
  await signInForTest('user-1');
  let release!: () => void;
  const answered = new Promise<void>((resolve) => (release = resolve));
  answerAll = release;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input));
      requested.push(url.pathname + (url.pathname.includes('/reports/') ? '' : url.search));
      if (url.pathname.includes('/reports/')) reportsCall = url.href;
      await answered;
      return Response.json(
        url.pathname.endsWith('/messages') || url.pathname.endsWith('/facilities') ? [] : {},
      );
    }),
  );
});
afterEach(() => {
  answerAll();
  vi.unstubAllGlobals();
});

const fleetReports = [
  REPORT_CODES.fleetExtraRemovalOfSulfur,
  REPORT_CODES.fleetCo2Reduction,
  REPORT_CODES.fleetTotalCo2Emission,
  REPORT_CODES.fleetMarpolCompliance,
  REPORT_CODES.fleetSo2Co2Ratio,
  REPORT_CODES.fleetOperationalAvailability,
  REPORT_CODES.fleetSfocImpact,
  REPORT_CODES.fleetWashwaterCompliance,
];

describe('the first API calls of a signed-in browser', () => {
  it('start together on the fleet dashboard: profile, ships, messages, open events and the eight reports in one call', async () => {
    const client = new QueryClient();
    await startFirstRequests(client, '/');
    // All five are asked for before any one of them is answered: they fit the browser's six connections per host.
    await vi.waitFor(() => expect(requested).toHaveLength(5));
    expect(requested).toEqual(
      expect.arrayContaining([
        '/api/auth/me',
        '/api/facilities',
        '/api/messages?isActive=true',
        '/api/events?state=open&state=acknowledged&limit=1',
        '/api/reports/data',
      ]),
    );
    expect(new URL(reportsCall!).searchParams.get('reportIds')!.split(',')).toEqual(fleetReports);
    answerAll();
    // The components that need them find them in the query cache: nothing is asked twice.
    await vi.waitFor(() => expect(client.isFetching()).toBe(0));
    expect(client.getQueryData(['profile', 'user-1'])).toEqual({});
    expect(requested).toHaveLength(5);
  });

  it('start without the report calls on another page, or when the fleet filter needs the ship list', async () => {
    await startFirstRequests(new QueryClient(), '/ship/abc');
    await vi.waitFor(() => expect(requested).toHaveLength(3));
    localStorage.setItem(FLEET_FILTER_STORAGE_KEY, JSON.stringify({ scrubberSystemTypes: ['Hybrid'] }));
    requested = [];
    await startFirstRequests(new QueryClient(), '/');
    // The open events are every ship's: they need no ship list.
    await vi.waitFor(() => expect(requested).toHaveLength(4));
    expect(requested.some((r) => r.includes('/reports/'))).toBe(false);
  });

  it('do not start without a sign-in, before cookie consent or in maintenance', async () => {
    // A request starts as a query in the client's cache, there when startFirstRequests returns: none is, so none
    // will be asked for later.
    const client = new QueryClient();
    await signOutForTest();
    await startFirstRequests(client, '/');
    await signInForTest('user-1');
    localStorage.removeItem(COOKIE_CONSENT_KEY);
    await startFirstRequests(client, '/');
    localStorage.setItem(COOKIE_CONSENT_KEY, 'true');
    window.settings = testSettings({ maintenance: true });
    await startFirstRequests(client, '/');
    expect(client.getQueryCache().getAll()).toEqual([]);
    expect(requested).toEqual([]);
    // As a started one is, at once.
    window.settings = testSettings();
    await startFirstRequests(client, '/ship/abc');
    expect(client.getQueryCache().getAll()).toHaveLength(3);
  });
});
