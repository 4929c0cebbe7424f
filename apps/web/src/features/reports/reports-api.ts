import { queryOptions } from '@tanstack/react-query';
import type { ReportListItem } from '@portal/contracts/reports';
import { apiRequest } from '../../app/api';

/** GET algorithm/reports: id, name, target, approvedFieldsCount, totalFieldsCount. */
export const reportsQuery = () =>
  queryOptions({
    queryKey: ['algorithm-reports'],
    queryFn: ({ signal }) => apiRequest<ReportListItem[]>('algorithm/reports', { signal }),
  });
