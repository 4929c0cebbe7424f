import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ShipPosition, Track } from '@portal/contracts/map';
import type { ShipZoneWarnings } from '@portal/contracts/zone-warnings';
import { apiRequest } from '../../lib/api';
import { mapKeys } from './keys';

/** GET facilities/{id}/track: the ship's thinned track of the period. */
export const trackQuery = (facilityId: string, period: { from: Date; to: Date }) => {
  const from = period.from.toISOString();
  const to = period.to.toISOString();
  return queryOptions({
    queryKey: mapKeys.track(facilityId, from, to),
    queryFn: ({ signal }) =>
      apiRequest<Track>(`facilities/${encodeURIComponent(facilityId)}/track`, {
        query: { from, to },
        signal,
      }),
    staleTime: 60_000,
  });
};

/** GET facilities/positions: each ship's last position in the period. */
export const positionsQuery = (period: { from: Date; to: Date }) => {
  const from = period.from.toISOString();
  const to = period.to.toISOString();
  return queryOptions({
    queryKey: mapKeys.positions(from, to),
    queryFn: ({ signal }) =>
      apiRequest<ShipPosition[]>('facilities/positions', { query: { from, to }, signal }),
    staleTime: 60_000,
  });
};

export const useTrack = (facilityId: string, period: { from: Date; to: Date }, enabled = true) =>
  useQuery({ ...trackQuery(facilityId, period), enabled });

export const usePositions = (period: { from: Date; to: Date }) => useQuery(positionsQuery(period));

/** GET facilities/{id}/zone-warnings: the ship's active zone warnings and its track ahead, now (asked every minute). */
export const useZoneWarnings = (facilityId: string, enabled = true) =>
  useQuery({
    queryKey: mapKeys.zoneWarnings(facilityId),
    queryFn: ({ signal }) =>
      apiRequest<ShipZoneWarnings>(`facilities/${encodeURIComponent(facilityId)}/zone-warnings`, { signal }),
    enabled,
    staleTime: 30_000,
    refetchInterval: 60_000,
  });
