/** Query keys of the map: only this feature fetches tracks and positions. They change with executions. */
export const mapKeys = {
  all: ['map'] as const,
  track: (facilityId: string, from: string, to: string) =>
    [...mapKeys.all, 'track', facilityId, from, to] as const,
  positions: (from: string, to: string) => [...mapKeys.all, 'positions', from, to] as const,
  zoneWarnings: (facilityId: string) => [...mapKeys.all, 'zone-warnings', facilityId] as const,
};
