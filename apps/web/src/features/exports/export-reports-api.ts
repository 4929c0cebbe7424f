import { queryOptions } from '@tanstack/react-query';
import type { Report, ReportListItem } from '@portal/contracts/reports';
import { apiRequest } from '../../lib/api';
import { reportKeys } from '../../lib/queries/keys';

/** GET algorithm/reports (the report choice of the export). */
export const exportReportsQuery = () =>
  queryOptions({
    queryKey: reportKeys.list(),
    queryFn: ({ signal }) => apiRequest<ReportListItem[]>('algorithm/reports', { signal }),
  });

/** GET algorithm/reports/{id} (its fields). */
export const exportReportQuery = (id: string) =>
  queryOptions({
    queryKey: reportKeys.detail(id),
    queryFn: ({ signal }) => apiRequest<Report>(`algorithm/reports/${encodeURIComponent(id)}`, { signal }),
    enabled: Boolean(id),
  });
