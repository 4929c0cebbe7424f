import { queryOptions, useMutation, useQueries, useQueryClient } from '@tanstack/react-query';
import type { DataFile, UploadResponse } from '@portal/contracts/files';
import { apiRequest } from '../../lib/api';
import { dataHealthKeys, executionKeys, facilityKeys } from '../../lib/queries/keys';
import { dataSourceFileKeys, dataSourceKeys } from './keys';

/** GET algorithm/facilitydatasource/{id}/file: the files of a data source. */
export const dataSourceFilesQuery = (dataSourceId: string) =>
  queryOptions({
    queryKey: dataSourceFileKeys.dataSource(dataSourceId),
    queryFn: ({ signal }) =>
      apiRequest<DataFile[]>(`algorithm/facilitydatasource/${dataSourceId}/file`, { signal }),
  });

export const useFilesOfDataSources = (dataSourceIds: string[]) =>
  useQueries({ queries: dataSourceIds.map((id) => dataSourceFilesQuery(id)) });

/**
 * POST algorithm/facilitydatasource/{id}/file (multipart): one file or a .zip; answers ids, errorMessages, each
 * file's warnings and the execution it queued or joined. `execute: false` (Run for the uploaded files unticked)
 * sends execute=false: the files are imported, nothing is queued.
 */
export function useUploadFile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ dataSourceId, file, execute }: { dataSourceId: string; file: File; execute: boolean }) => {
      const form = new FormData();
      form.append('file', file, file.name);
      return apiRequest<UploadResponse>(`algorithm/facilitydatasource/${dataSourceId}/file`, {
        method: 'POST',
        rawBody: form,
        ...(execute ? {} : { query: { execute: false } }),
      });
    },
    onSettled: (_data, _error, { dataSourceId }) => {
      // The ship list shows Processing while the upload's execution waits or runs.
      void client.invalidateQueries({ queryKey: executionKeys.all });
      void client.invalidateQueries({ queryKey: dataSourceFileKeys.dataSource(dataSourceId) });
      void client.invalidateQueries({ queryKey: facilityKeys.all });
      void client.invalidateQueries({ queryKey: dataSourceKeys.all });
      void client.invalidateQueries({ queryKey: dataHealthKeys.all });
    },
  });
}

/** DELETE algorithm/facilitydatasource/{id}/file/{fileId}?deleteData: each selected file in turn. */
export function useDeleteFiles() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({
      files,
      deleteData,
    }: {
      files: { id: string; dataSourceId: string }[];
      deleteData: boolean;
    }) => {
      for (const f of files) {
        await apiRequest(`algorithm/facilitydatasource/${f.dataSourceId}/file/${f.id}`, {
          method: 'DELETE',
          query: { deleteData },
          responseType: 'none',
        });
      }
    },
    onSettled: () => {
      void client.invalidateQueries({ queryKey: dataSourceFileKeys.all });
      void client.invalidateQueries({ queryKey: facilityKeys.all });
      void client.invalidateQueries({ queryKey: dataSourceKeys.all });
      void client.invalidateQueries({ queryKey: dataHealthKeys.all });
    },
  });
}
