import { queryOptions } from '@tanstack/react-query';
import type { Report } from '@portal/contracts/reports';
import { apiRequest } from '../../lib/api';
import { reportKeys } from '../../lib/queries/keys';

/** GET algorithm/reports/{id}: the report with its fields (isApproved, properties, approved calculation). */
export const reportQuery = (id: string) =>
  queryOptions({
    queryKey: reportKeys.detail(id),
    queryFn: ({ signal }) => apiRequest<Report>(`algorithm/reports/${encodeURIComponent(id)}`, { signal }),
  });
