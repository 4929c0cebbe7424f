import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  Bdn,
  BdnInput,
  NoonReportImportResult,
  ReconciliationResult,
  TankSounding,
  TankSoundingInput,
} from '@portal/contracts/carbon';
import type { PortList } from '@portal/contracts/ports';
import { apiRequest } from '../../lib/api';
import { useRefreshRecordBook } from '../events';
import { fuelRecordKeys } from './keys';

const e = encodeURIComponent;

/** Whole UTC days, both included; none: every record of the ship. */
type Days = { from: string; to: string } | null;

/** GET facilities/{id}/bunker-notes: every note of the ship (not withdrawn), or those of the days, in time order. */
export const bdnsQuery = (facilityId: string, days: Days = null) =>
  queryOptions({
    queryKey: fuelRecordKeys.bdns(facilityId, days),
    queryFn: ({ signal }) =>
      apiRequest<Bdn[]>(`facilities/${e(facilityId)}/bunker-notes`, { query: days ?? undefined, signal }),
  });

/** GET facilities/{id}/tank-soundings: every sounding of the ship, or those of the days, in time order. */
export const soundingsQuery = (facilityId: string, days: Days = null) =>
  queryOptions({
    queryKey: fuelRecordKeys.soundings(facilityId, days),
    queryFn: ({ signal }) =>
      apiRequest<TankSounding[]>(`facilities/${e(facilityId)}/tank-soundings`, {
        query: days ?? undefined,
        signal,
      }),
  });

/** GET facilities/{id}/reconciliation?from&to: flow meters against the notes and soundings of whole UTC days. */
export const reconciliationQuery = (facilityId: string, period: { from: string; to: string }) =>
  queryOptions({
    queryKey: fuelRecordKeys.reconciliation(facilityId, period),
    queryFn: ({ signal }) =>
      apiRequest<ReconciliationResult>(`facilities/${e(facilityId)}/reconciliation`, {
        query: period,
        signal,
      }),
    placeholderData: keepPreviousData,
  });

/** GET ports?search: the ports the caller's organization sees, by name or UN/LOCODE (the note's port field). */
export const portSearchQuery = (search: string) =>
  queryOptions({
    queryKey: fuelRecordKeys.ports(search),
    queryFn: ({ signal }) => apiRequest<PortList>('ports', { query: { search, limit: 20 }, signal }),
    enabled: search.trim().length >= 2,
    staleTime: 5 * 60_000,
    placeholderData: keepPreviousData,
  });

/** After a change of a note: the ship's records and reconciliations, and its record book (the note's entries). */
function useRecordsRefresh(facilityId: string) {
  const client = useQueryClient();
  const refreshRecordBook = useRefreshRecordBook();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: fuelRecordKeys.records(facilityId) }),
      refreshRecordBook(),
    ]);
}

/** POST facilities/{id}/bunker-notes, PUT or DELETE bunker-notes/{id}. */
export function useSaveBdn(facilityId: string) {
  const refresh = useRecordsRefresh(facilityId);
  return useMutation({
    mutationFn: ({ id, body }: { id?: string; body: BdnInput }) =>
      id
        ? apiRequest<Bdn>(`bunker-notes/${e(id)}`, { method: 'PUT', body })
        : apiRequest<Bdn>(`facilities/${e(facilityId)}/bunker-notes`, { method: 'POST', body }),
    onSettled: refresh,
  });
}

export function useRemoveBdn(facilityId: string) {
  const refresh = useRecordsRefresh(facilityId);
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest<void>(`bunker-notes/${e(id)}`, { method: 'DELETE', responseType: 'none' }),
    onSettled: refresh,
  });
}

/** POST facilities/{id}/tank-soundings, DELETE tank-soundings/{id}. */
export function useAddSounding(facilityId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: TankSoundingInput) =>
      apiRequest<TankSounding>(`facilities/${e(facilityId)}/tank-soundings`, { method: 'POST', body }),
    onSettled: () => client.invalidateQueries({ queryKey: fuelRecordKeys.records(facilityId) }),
  });
}

export function useRemoveSounding(facilityId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest<void>(`tank-soundings/${e(id)}`, { method: 'DELETE', responseType: 'none' }),
    onSettled: () => client.invalidateQueries({ queryKey: fuelRecordKeys.records(facilityId) }),
  });
}

/** POST facilities/{id}/noon-reports: a CSV of noon reports into the voyages' cargo. */
export function useImportNoonReports(facilityId: string) {
  return useMutation({
    mutationFn: (csv: string) =>
      apiRequest<NoonReportImportResult>(`facilities/${e(facilityId)}/noon-reports`, {
        method: 'POST',
        body: { csv },
      }),
  });
}
