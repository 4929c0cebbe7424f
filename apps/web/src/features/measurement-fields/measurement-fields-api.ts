import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  DefaultCalculationsResult,
  MeasurementField,
  MeasurementFieldDetail,
} from '@portal/contracts/measurement-fields';
import type { Calculation } from '@portal/contracts/calculations';
import { apiRequest } from '../../lib/api';
import { measurementFieldKeys } from '../../lib/queries/keys';

/** GET algorithm/measurement-fields/facility/{id}: the catalogue with the ship's status per field. */
export const facilityMeasurementFieldsQuery = (facilityId: string) =>
  queryOptions({
    queryKey: measurementFieldKeys.facility(facilityId),
    queryFn: ({ signal }) =>
      apiRequest<MeasurementField[]>(`algorithm/measurement-fields/facility/${facilityId}`, { signal }),
  });
export const useFacilityMeasurementFields = (facilityId: string) =>
  useQuery(facilityMeasurementFieldsQuery(facilityId));

/** GET algorithm/measurement-fields/{id}?facilityId: the field, its counts on the ship and the ship's channels. */
export const measurementFieldQuery = (id: string, facilityId: string) =>
  queryOptions({
    queryKey: measurementFieldKeys.detail(id, facilityId),
    queryFn: ({ signal }) =>
      apiRequest<MeasurementFieldDetail>(`algorithm/measurement-fields/${id}`, {
        query: { facilityId },
        signal,
      }),
  });
export const useMeasurementField = (id: string, facilityId: string) =>
  useQuery({ ...measurementFieldQuery(id, facilityId), enabled: Boolean(id) });

/** GET the field's calculations on the ship (newest first) and PUT approve: what Approve all uses. */
export const fetchFieldCalculations = (facilityId: string, fieldId: string) =>
  apiRequest<Calculation[]>(`algorithm/facility/${facilityId}/measurement-field/${fieldId}/calculations`);
export const approveFieldCalculation = (
  facilityId: string,
  fieldId: string,
  calcId: string,
  validity: { validFrom: string; validTo: string | null },
) =>
  apiRequest<unknown>(
    `algorithm/facility/${facilityId}/measurement-field/${fieldId}/calculations/${calcId}/approve`,
    { method: 'PUT', body: validity },
  );

/** POST algorithm/measurement-fields/facility/{id}/default-calculations: the ship's missing defaults as drafts. */
export const addDefaultCalculations = (facilityId: string) =>
  apiRequest<DefaultCalculationsResult>(
    `algorithm/measurement-fields/facility/${facilityId}/default-calculations`,
    { method: 'POST' },
  );

/**
 * DELETE algorithm/measurement-fields/values and DELETE algorithm/reports/values (facilityId, from, to): the ship's
 * calculated values over a range, each call audited by the API. Either or both, the measurement field values first.
 */
export function useDeleteValues() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (v: {
      facilityId: string;
      from: string;
      to: string;
      measurementValues: boolean;
      reportValues: boolean;
    }) => {
      const query = { facilityId: v.facilityId, from: v.from, to: v.to };
      if (v.measurementValues)
        await apiRequest('algorithm/measurement-fields/values', { method: 'DELETE', query });
      if (v.reportValues) await apiRequest('algorithm/reports/values', { method: 'DELETE', query });
    },
    // What was computed from them shows in many places (dashboards, events, data health, the ship list): all afresh.
    onSettled: () => client.invalidateQueries(),
  });
}
