import { queryOptions } from '@tanstack/react-query';
import type { ReportListItem } from '@portal/contracts/reports';
import { apiRequest } from '../../lib/api';
import { reportKeys } from '../../lib/queries/keys';

/** GET algorithm/reports: id, name, target, approvedFieldsCount, totalFieldsCount. */
export const reportsQuery = () =>
  queryOptions({
    queryKey: reportKeys.list(),
    queryFn: ({ signal }) => apiRequest<ReportListItem[]>('algorithm/reports', { signal }),
  });
