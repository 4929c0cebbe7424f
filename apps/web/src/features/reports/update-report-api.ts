import { useMutation, useQueryClient } from '@tanstack/react-query';
import { updateReportBodySchema, type Report } from '@portal/contracts/reports';
import { apiRequest } from '../../lib/api';
import { reportKeys } from '../../lib/queries/keys';

export { updateReportBodySchema };

/** PUT algorithm/reports/{id}/update-report with the information HTML (the server sanitises it). */
export function useUpdateReport(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (information: string) =>
      apiRequest<Report>(`algorithm/reports/${encodeURIComponent(id)}/update-report`, {
        method: 'PUT',
        body: updateReportBodySchema.parse({ information }),
      }),
    onSuccess: (report) => {
      client.setQueryData(reportKeys.detail(id), report);
    },
  });
}
