import { queryOptions } from '@tanstack/react-query';
import type { ReportListItem } from '@portal/contracts/reports';
import { apiRequest } from '../../app/api';
import { reportKeys } from '../../app/queries/keys';

/** GET algorithm/reports: id, name, target, approvedFieldsCount, totalFieldsCount. */
export const reportsQuery = () =>
  queryOptions({
    queryKey: reportKeys.list(),
    queryFn: ({ signal }) => apiRequest<ReportListItem[]>('algorithm/reports', { signal }),
  });
