import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  DataSource,
  DataSourceBody,
  ImportConfigurationBody,
  ImportConfigurationResult,
  RawChannel,
} from '@portal/contracts/datasources';
import { dataSourceSchema } from '@portal/contracts/forms';
import { apiRequest } from '../../lib/api';
import { facilityKeys } from '../../lib/queries/keys';
import { channelKeys, dataSourceKeys } from './keys';

export { dataSourceSchema };

/** GET algorithm/facility/{id}/datasource: the ship's data sources with their channel mappings and files count. */
export const dataSourcesQuery = (facilityId: string) =>
  queryOptions({
    queryKey: dataSourceKeys.facility(facilityId),
    queryFn: ({ signal }) =>
      apiRequest<DataSource[]>(`algorithm/facility/${facilityId}/datasource`, { signal }),
  });

export const useDataSources = (facilityId: string) => useQuery(dataSourcesQuery(facilityId));

function fileBody(file: File): FormData {
  const form = new FormData();
  form.append('file', file, file.name);
  return form;
}

/** POST / PUT datasource, then (with a file) PUT .../SampleFile. A failed sample upload after a create deletes the new data source. */
export function useSaveDataSource(facilityId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({
      id,
      values,
      sampleFile,
    }: {
      id?: string;
      values: DataSourceBody;
      sampleFile?: File | null;
    }) => {
      const body = dataSourceSchema.parse(values);
      const saved = id
        ? await apiRequest<DataSource>(`algorithm/facility/${facilityId}/datasource/${id}`, {
            method: 'PUT',
            body,
          })
        : await apiRequest<DataSource>(`algorithm/facility/${facilityId}/datasource`, {
            method: 'POST',
            body,
          });
      if (sampleFile) {
        try {
          if (id)
            await apiRequest(
              `algorithm/facility/${facilityId}/datasource/${id}/samplefileandsamplechannels`,
              { method: 'DELETE', responseType: 'none' },
            );
          await apiRequest<RawChannel[]>(
            `algorithm/facility/${facilityId}/datasource/${saved.id}/SampleFile`,
            { method: 'PUT', rawBody: fileBody(sampleFile) },
          );
        } catch (error) {
          if (!id)
            await apiRequest(`algorithm/facility/${facilityId}/datasource/${saved.id}`, {
              method: 'DELETE',
              responseType: 'none',
            }).catch(() => undefined);
          throw new SampleUploadError(error);
        }
      }
      return saved;
    },
    onSettled: () => {
      void client.invalidateQueries({ queryKey: dataSourceKeys.facility(facilityId) });
      void client.invalidateQueries({ queryKey: channelKeys.all });
      void client.invalidateQueries({ queryKey: facilityKeys.all });
    },
  });
}

export class SampleUploadError extends Error {
  constructor(override readonly cause: unknown) {
    super('Sample upload failed');
  }
}

/** DELETE algorithm/facility/{id}/datasource/{id}: the data source with its channels, files and data. */
export function useDeleteDataSource(facilityId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest(`algorithm/facility/${facilityId}/datasource/${id}`, {
        method: 'DELETE',
        responseType: 'none',
      }),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: dataSourceKeys.facility(facilityId) });
      void client.invalidateQueries({ queryKey: facilityKeys.all });
    },
  });
}

/**
 * PUT algorithm/facilities/{id}/configurations: copy data sources (with sample files), channels and calculations from
 * another ship, the calculations valid from `validFrom`.
 */
export function useImportConfiguration(facilityId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ImportConfigurationBody) =>
      apiRequest<ImportConfigurationResult>(`algorithm/facilities/${facilityId}/configurations`, {
        method: 'PUT',
        body,
      }),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: dataSourceKeys.facility(facilityId) });
      void client.invalidateQueries({ queryKey: channelKeys.all });
      void client.invalidateQueries({ queryKey: facilityKeys.all });
    },
  });
}
