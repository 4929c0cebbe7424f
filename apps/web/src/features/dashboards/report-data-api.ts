import { useEffect } from 'react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { reportsDataBodySchema, type ReportData, type ReportsData } from '@portal/contracts/reports';
import type { UptimeMode } from '@portal/contracts/rules';
import { apiRequest } from '../../lib/api';
import { useNotify } from '../../lib/notifications';
import { reportDataKeys } from './keys';

/** A dashboard's reports, asked for with the same period and ships. */
export interface ReportsDataInput {
  reportIds: string[];
  from: Date;
  to: Date;
  /** The ship of ship reports. */
  facilityId?: string;
  /** Set when the fleet filter is active: the request becomes a POST with the filtered ships. */
  facilityIds?: string[];
  /** The uptime matrix's mode (the reports without a mode ignore it). */
  duration?: UptimeMode;
}

/**
 * GET reports/data with the report ids (one request for all of a dashboard's reports: over a satellite link each
 * further round trip costs 0.6 s), or POST with the facility ids when the fleet filter is active.
 */
export function fetchReportsData(input: ReportsDataInput, signal?: AbortSignal): Promise<ReportsData> {
  const { reportIds, from, to, facilityId, facilityIds, duration } = reportsDataBodySchema.parse({
    reportIds: input.reportIds,
    from: input.from.toISOString(),
    to: input.to.toISOString(),
    facilityId: input.facilityId,
    facilityIds: input.facilityIds,
    duration: input.duration,
  });
  if (facilityIds)
    return apiRequest<ReportsData>('reports/data', {
      method: 'POST',
      body: { reportIds, from, to, facilityId, facilityIds, duration },
      signal,
    });
  return apiRequest<ReportsData>('reports/data', {
    query: { reportIds: reportIds.join(','), from, to, facilityId, duration },
    signal,
  });
}

export const reportsDataQuery = (input: ReportsDataInput) =>
  queryOptions({
    queryKey: reportDataKeys.request(input),
    queryFn: ({ signal }) => fetchReportsData(input, signal),
    retry: false,
  });

/** A dashboard's reports in one request, keyed by report id. A failed fetch shows the default error notification. */
export function useReportsData(
  input: ReportsDataInput,
  enabled = true,
): { data: Record<string, ReportData | undefined>; loading: boolean } {
  const notify = useNotify();
  const result = useQuery({ ...reportsDataQuery(input), enabled });
  const failedAt = result.isError ? result.errorUpdatedAt : 0;
  useEffect(() => {
    if (failedAt) notify.error();
    // Only when a new failure arrives.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [failedAt]);
  return { data: result.data?.reports ?? {}, loading: result.isPending && enabled };
}
