import type { ReactElement, ReactNode } from 'react';
import { render, type RenderOptions, type RenderResult } from '@testing-library/react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { User } from 'oidc-client-ts';
import type { UserProfile } from '@portal/contracts/auth';
import type { PortalSettings } from '@portal/contracts/environment';
import { emptyFleetFilter, lastMonthPeriod } from '@portal/contracts/rules';
import { userManager } from '../../lib/auth';
import { FixedFleetProvider, type FleetContextValue } from '../../lib/fleet-context';
import { NotificationProvider } from '../../lib/notifications';
import { createQueryClient } from '../../lib/query-client';
import { FixedSessionProvider, type Session } from '../../lib/session';
import { utcDayjs } from '../dates/pickers';

/**
 * The component tests' providers in one place: what the app wraps every screen in (shell/App.tsx), with the query
 * cache, the notifications, a signed-in user's session of the test's choosing, the date pickers' UTC and a router.
 * The API client, sign-in and notifications are the real ones: a test stubs `fetch` (the server), sets
 * `window.settings = testSettings()` (what /settings.js holds) and, where the token matters, stores a signed-in
 * user in the real oidc-client-ts store (`signInForTest`). Nothing of lib/ is mocked.
 */

/** What /settings.js holds, for a test: the API at /api/, no maintenance, no error reports sent. */
export function testSettings(overrides: Partial<PortalSettings> = {}): PortalSettings {
  return {
    apiBaseUrl: '/api/',
    oidc: { authority: 'http://localhost:3000/oidc', clientId: 'portal-web', scope: 'openid api' },
    environment: { name: '', color: '', html: '' },
    maintenance: false,
    supportPhone: '',
    companyText: 'Scrubber Fleet Monitoring',
    traceSampleRate: 0,
    ...overrides,
  };
}

/** A User of an organization: the profile the tests' sessions start from. */
export const TEST_PROFILE: UserProfile = {
  sub: 'user-1',
  username: 'north.anna',
  organizationId: 'org-1',
  organizationName: 'Nordic',
  organizationPriority: false,
  roles: ['User'],
};

/**
 * Stores a signed-in user in the browser's session as sign-in does (the real oidc-client-ts store), so that the API
 * client sends its token (`Bearer test-token`) and the start's calls go out. `signOutForTest` removes it.
 */
export async function signInForTest(sub = TEST_PROFILE.sub, accessToken = 'test-token'): Promise<void> {
  const now = Math.floor(Date.now() / 1000);
  await userManager().storeUser(
    new User({
      access_token: accessToken,
      token_type: 'Bearer',
      expires_at: now + 3_600,
      profile: {
        sub,
        iss: testSettings().oidc.authority,
        aud: testSettings().oidc.clientId,
        exp: now + 3_600,
        iat: now,
      },
    }),
  );
}

export async function signOutForTest(): Promise<void> {
  await userManager().removeUser();
}

/** The query cache of a test: the app's defaults (lib/query-client.ts), without retries. */
export const testQueryClient = () => createQueryClient({ retry: 0 });

export interface TestProviderOptions {
  /** The signed-in user's profile, over TEST_PROFILE; null: no profile (signed out). */
  profile?: Partial<UserProfile> | null;
  /** The fleet state (period, filter, ships); without it, no fleet provider (useFleet throws, as outside the app). */
  fleet?: Partial<FleetContextValue>;
  /** The router's address; false: no router (the test renders its own). Default '/'. */
  route?: string | false;
  /** The query cache; a fresh testQueryClient() by default. */
  queryClient?: QueryClient;
}

/** The fleet state of a test: last month, no filter, the ships given. */
export function testFleet(fleet: Partial<FleetContextValue> = {}): FleetContextValue {
  const facilities = fleet.facilities ?? [];
  return {
    period: lastMonthPeriod(new Date()),
    setPeriod: () => undefined,
    filter: emptyFleetFilter(),
    setFilter: () => undefined,
    facilities,
    filteredFacilities: facilities,
    currentFacility: facilities[0],
    ...fleet,
  };
}

function testSession(profile: Partial<UserProfile> | null | undefined): Session {
  return {
    user: undefined,
    profile: profile === null ? undefined : { ...TEST_PROFILE, ...profile },
    signOut: async () => undefined,
  };
}

/** The providers around a test's component (also a `wrapper` for renderHook). */
export function TestProviders({
  children,
  queryClient,
  profile,
  fleet,
  route = '/',
}: TestProviderOptions & { children: ReactNode; queryClient: QueryClient }) {
  const routed =
    route === false ? children : <MemoryRouter initialEntries={[route]}>{children}</MemoryRouter>;
  return (
    <QueryClientProvider client={queryClient}>
      <LocalizationProvider dateAdapter={AdapterDayjs} dateLibInstance={utcDayjs}>
        <NotificationProvider>
          <FixedSessionProvider session={testSession(profile)}>
            {fleet ? <FixedFleetProvider value={testFleet(fleet)}>{routed}</FixedFleetProvider> : routed}
          </FixedSessionProvider>
        </NotificationProvider>
      </LocalizationProvider>
    </QueryClientProvider>
  );
}

/**
 * Renders `ui` inside TestProviders; `rerender` keeps them. Returns the query cache too, for a test that looks at
 * what was fetched or refreshed.
 */
export function renderWithProviders(
  ui: ReactElement,
  { queryClient = testQueryClient(), ...options }: TestProviderOptions & Omit<RenderOptions, 'wrapper'> = {},
): RenderResult & { queryClient: QueryClient } {
  const { profile, fleet, route, ...renderOptions } = options;
  const wrapper = ({ children }: { children: ReactNode }) => (
    <TestProviders queryClient={queryClient} profile={profile} fleet={fleet} route={route}>
      {children}
    </TestProviders>
  );
  return { ...render(ui, { ...renderOptions, wrapper }), queryClient };
}
