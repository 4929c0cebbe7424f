import { useMutation } from '@tanstack/react-query';
import { EXPORT_FILE_NAME, exportBodySchema, type ExportBody } from '@portal/contracts/exports';
import { apiRequest } from '../../app/api';

export { exportBodySchema };

/** POST algorithm/exports: the .xlsx as a blob, saved as export.xlsx. */
export async function downloadExport(body: ExportBody): Promise<void> {
  const blob = await apiRequest<Blob>('algorithm/exports', {
    method: 'POST',
    body: exportBodySchema.parse(body),
    responseType: 'blob',
  });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = EXPORT_FILE_NAME;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export const useDownloadExport = () => useMutation({ mutationFn: downloadExport });
