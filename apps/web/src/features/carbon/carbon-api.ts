import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  CiiResult,
  DcsReportRecord,
  FleetCii,
  FuelByPeriod,
  PortCallRecord,
  Voyage,
  VoyageCargoInput,
} from '@portal/contracts/carbon';
import { ApiRequestError, apiRequest } from '../../lib/api';
import { saveBlob } from '../../ui/files/save-blob';
import { carbonKeys } from './keys';
import { dcsFileName, type DayPeriod } from './display';

const ship = (facilityId: string) => `facilities/${encodeURIComponent(facilityId)}`;

/** The server's message of a refused request (4xx), for the notification; else the default text. */
export const failureMessage = (error: unknown): string | undefined =>
  error instanceof ApiRequestError && error.status < 500 ? error.body?.message : undefined;

/** GET facilities/{id}/voyages?from&to: the ship's voyages overlapping the days. */
export const voyagesQuery = (facilityId: string, period: DayPeriod) =>
  queryOptions({
    queryKey: carbonKeys.voyages(facilityId, period.from, period.to),
    queryFn: ({ signal }) =>
      apiRequest<Voyage[]>(`${ship(facilityId)}/voyages`, { query: { ...period }, signal }),
  });

/** GET facilities/{id}/port-calls?from&to: the ship's port calls overlapping the days. */
export const portCallsQuery = (facilityId: string, period: DayPeriod) =>
  queryOptions({
    queryKey: carbonKeys.portCalls(facilityId, period.from, period.to),
    queryFn: ({ signal }) =>
      apiRequest<PortCallRecord[]>(`${ship(facilityId)}/port-calls`, { query: { ...period }, signal }),
  });

/** GET facilities/{id}/fuel?from&to: the ship's fuel of the days per consumer and fuel type. */
export const fuelQuery = (facilityId: string, period: DayPeriod) =>
  queryOptions({
    queryKey: carbonKeys.fuel(facilityId, period.from, period.to),
    queryFn: ({ signal }) =>
      apiRequest<FuelByPeriod>(`${ship(facilityId)}/fuel`, { query: { ...period }, signal }),
  });

/** GET facilities/{id}/cii?year: the ship's CII of the year, with the trajectory to 2030. */
export const ciiQuery = (facilityId: string, year: number) =>
  queryOptions({
    queryKey: carbonKeys.cii(facilityId, year),
    queryFn: ({ signal }) => apiRequest<CiiResult>(`${ship(facilityId)}/cii`, { query: { year }, signal }),
  });

/** GET facilities/{id}/dcs-report?year: the year's IMO DCS items and what is missing. */
export const dcsQuery = (facilityId: string, year: number) =>
  queryOptions({
    queryKey: carbonKeys.dcs(facilityId, year),
    queryFn: ({ signal }) =>
      apiRequest<DcsReportRecord>(`${ship(facilityId)}/dcs-report`, { query: { year }, signal }),
  });

/** GET voyages/{id}: one voyage with its fuel and cargo. */
export const voyageQuery = (voyageId: string) =>
  queryOptions({
    queryKey: carbonKeys.voyage(voyageId),
    queryFn: ({ signal }) => apiRequest<Voyage>(`voyages/${encodeURIComponent(voyageId)}`, { signal }),
  });

/** GET cii/fleet?year: each ship's rating this year and projected, D and E first. */
export const fleetCiiQuery = (year: number) =>
  queryOptions({
    queryKey: carbonKeys.fleetCii(year),
    queryFn: ({ signal }) => apiRequest<FleetCii>('cii/fleet', { query: { year }, signal }),
  });

/**
 * PUT voyages/{id}/cargo: the voyage as it is now goes into the cache; the ship's voyage lists and its DCS report
 * (laden distance, transport work) are asked again.
 */
export function useSaveCargo(voyageId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: VoyageCargoInput) =>
      apiRequest<Voyage>(`voyages/${encodeURIComponent(voyageId)}/cargo`, { method: 'PUT', body }),
    onSuccess: (voyage) => {
      client.setQueryData(carbonKeys.voyage(voyageId), voyage);
      void client.invalidateQueries({ queryKey: carbonKeys.ship(voyage.shipId) });
    },
  });
}

/** GET facilities/{id}/dcs-report/export?year&format: the .xlsx or CSV, saved under the server's name for it. */
export async function downloadDcsReport(
  facilityId: string,
  shipName: string,
  year: number,
  format: 'xlsx' | 'csv',
): Promise<void> {
  const file = await apiRequest<Blob>(`${ship(facilityId)}/dcs-report/export`, {
    query: { year, format },
    responseType: 'blob',
  });
  saveBlob(file, dcsFileName(shipName, year, format));
}
