import { useMutation } from '@tanstack/react-query';
import { EXPORT_FILE_NAME, exportBodySchema, type ExportBody } from '@portal/contracts/exports';
import { apiRequest } from '../../lib/api';
import { saveBlob } from '../../ui/files/save-blob';

export { exportBodySchema };

/** POST algorithm/exports: the .xlsx as a blob, saved as export.xlsx. */
export async function downloadExport(body: ExportBody): Promise<void> {
  const blob = await apiRequest<Blob>('algorithm/exports', {
    method: 'POST',
    body: exportBodySchema.parse(body),
    responseType: 'blob',
  });
  saveBlob(blob, EXPORT_FILE_NAME);
}

export const useDownloadExport = () => useMutation({ mutationFn: downloadExport });
