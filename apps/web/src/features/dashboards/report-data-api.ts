import { useEffect } from 'react';
import { queryOptions, useQueries } from '@tanstack/react-query';
import { reportDataBodySchema, type ReportData } from '@portal/contracts/reports';
import type { UptimeMode } from '@portal/contracts/rules';
import { apiRequest } from '../../app/api';
import { useNotify } from '../../app/notifications';

export interface ReportDataInput {
  reportId: string;
  from: Date;
  to: Date;
  facilityId?: string;
  /** Set when the fleet filter is active: the request becomes a POST with the filtered ships. */
  facilityIds?: string[];
  duration?: UptimeMode;
}

/** The request as the API's schema checks it (reportDataBodySchema). */
export const reportDataInputSchema = reportDataBodySchema;

/** GET reports/{id}/data, or POST with the facility ids when the fleet filter is active. */
export function fetchReportData(input: ReportDataInput, signal?: AbortSignal): Promise<ReportData> {
  const { from, to, facilityId, facilityIds, duration } = reportDataInputSchema.parse({
    from: input.from.toISOString(),
    to: input.to.toISOString(),
    facilityId: input.facilityId,
    facilityIds: input.facilityIds,
    duration: input.duration,
  });
  const path = `reports/${encodeURIComponent(input.reportId)}/data`;
  if (facilityIds)
    return apiRequest<ReportData>(path, {
      method: 'POST',
      body: { from, to, facilityId, facilityIds, duration },
      signal,
    });
  return apiRequest<ReportData>(path, { query: { from, to, facilityId, duration }, signal });
}

export const reportDataQuery = (input: ReportDataInput) =>
  queryOptions({
    queryKey: [
      'report-data',
      input.reportId,
      input.from.toISOString(),
      input.to.toISOString(),
      input.facilityId ?? null,
      input.facilityIds ?? null,
      input.duration ?? null,
    ],
    queryFn: ({ signal }) => fetchReportData(input, signal),
    retry: false,
  });

/**
 * Several reports at once, keyed by report id. A failed fetch shows the default error notification
 * (once per failure).
 */
export function useReportsData(
  inputs: ReportDataInput[],
  enabled = true,
): { data: Record<string, ReportData | undefined>; loading: boolean } {
  const notify = useNotify();
  const results = useQueries({ queries: inputs.map((input) => ({ ...reportDataQuery(input), enabled })) });
  const failedAt = results.map((r) => (r.isError ? r.errorUpdatedAt : 0)).join(',');
  useEffect(() => {
    if (results.some((r) => r.isError)) notify.error();
    // Only when a new failure arrives.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [failedAt]);
  const data: Record<string, ReportData | undefined> = {};
  inputs.forEach((input, i) => {
    data[input.reportId] = results[i]?.data;
  });
  return { data, loading: results.some((r) => r.isPending && enabled) };
}
