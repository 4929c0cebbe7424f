import { queryOptions } from '@tanstack/react-query';
import type { Report } from '@portal/contracts/reports';
import { apiRequest } from '../../app/api';
import { reportKeys } from '../../app/queries/keys';

/** GET algorithm/reports/{id}: the report with its fields (isApproved, properties, approved calculation). */
export const reportQuery = (id: string) =>
  queryOptions({
    queryKey: reportKeys.detail(id),
    queryFn: ({ signal }) => apiRequest<Report>(`algorithm/reports/${encodeURIComponent(id)}`, { signal }),
  });
