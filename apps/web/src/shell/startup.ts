import type { QueryClient } from '@tanstack/react-query';
import {
  FLEET_FILTER_GROUPS,
  parseStoredFleetFilter,
  restorePeriod,
  rolesFromClaim,
} from '@portal/contracts/rules';
import { fleetDashboardInputs } from '../features/dashboards/FleetDashboardPage';
import { reportsDataQuery } from '../features/dashboards/report-data-api';
import { openEventsQuery } from '../features/events/events-api';
import { activeMessagesQuery } from '../features/messages';
import { userManager } from '../lib/auth';
import { cookiesAccepted } from './cookie-consent';
import { FLEET_FILTER_STORAGE_KEY, PERIOD_STORAGE_KEY } from '../lib/fleet-context';
import { facilitiesQuery } from '../lib/queries/facilities';
import { profileQuery } from '../lib/queries/profile';

/**
 * The first API calls of a signed-in browser, all at once as soon as the app's code runs: the profile, the
 * ships, the messages and, on the fleet dashboard, its open events (the card and the ship badges: every ship, so
 * whatever the filter) and without filter criteria its reports (one call). None waits for
 * another (over a 600 ms satellite round trip each step costs that much); the components that need them find
 * them in flight in the query cache. Nothing starts before cookie consent, in maintenance or without a valid
 * stored sign-in.
 */
export async function startFirstRequests(
  client: QueryClient,
  path = window.location.pathname,
): Promise<void> {
  if (window.settings?.maintenance || !cookiesAccepted()) return;
  const user = await userManager()
    .getUser()
    .catch(() => null);
  if (!user || user.expired) return;
  void client.prefetchQuery(profileQuery(user.profile.sub));
  void client.prefetchQuery(facilitiesQuery());
  void client.prefetchQuery(activeMessagesQuery());
  // A verifier's start is its verification, not the fleet dashboard (docs/decisions/0115-verifier.md).
  if (path !== '/' || rolesFromClaim(user.profile.role).includes('Verifier')) return;
  void client.prefetchQuery(openEventsQuery());
  const filter = parseStoredFleetFilter(localStorage.getItem(FLEET_FILTER_STORAGE_KEY));
  // With filter criteria the dashboard posts the filtered ships: that waits for the ship list.
  if (FLEET_FILTER_GROUPS.some((group) => filter[group].length > 0)) return;
  const period = restorePeriod(localStorage.getItem(PERIOD_STORAGE_KEY), new Date());
  void client.prefetchQuery(reportsDataQuery(fleetDashboardInputs(period, undefined)));
}
