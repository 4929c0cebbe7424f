import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ChannelMappingListItem,
  DataSourceChannel,
  RawChannel,
  SuggestedMappings,
} from '@portal/contracts/datasources';
import { channelMappingSchema, customChannelSchema } from '@portal/contracts/forms';
import type { FuelChannelAttributes } from '@portal/contracts/fuel-channels';
import { apiRequest } from '../../lib/api';
import { channelKeys, dataSourceKeys, suggestionKeys } from './keys';

export { channelMappingSchema, customChannelSchema };

/** GET algorithm/facilitydatasource/{id}/samplechannels: the raw channels of the data source's sample file. */
export const sampleChannelsQuery = (dataSourceId: string) =>
  queryOptions({
    queryKey: channelKeys.sampleChannels(dataSourceId),
    queryFn: ({ signal }) =>
      apiRequest<RawChannel[]>(`algorithm/facilitydatasource/${dataSourceId}/samplechannels`, { signal }),
  });

export const useSampleChannels = (dataSourceId: string) => useQuery(sampleChannelsQuery(dataSourceId));

/** The form's values, as typed (the schemas convert them). */
export interface ChannelInput {
  source: string;
  name: string;
  dataType: string;
  unit?: string;
  description?: string;
  qualityScore?: number | null;
  isCustom?: boolean;
  /** A fuel flow channel's consumer and fuel type source; left out, the mapping keeps what it has. */
  fuel?: FuelChannelAttributes;
}

/** POST, PUT or DELETE algorithm/facilitydatasource/{id}/facilitydatasourcechannels[/{channelId}]. */
export function useSaveChannel(facilityId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({
      dataSourceId,
      channelId,
      values,
      remove,
    }: {
      dataSourceId: string;
      channelId?: string;
      values?: ChannelInput;
      remove?: boolean;
    }): Promise<DataSourceChannel | null> => {
      const base = `algorithm/facilitydatasource/${dataSourceId}/facilitydatasourcechannels`;
      if (remove && channelId) {
        await apiRequest<void>(`${base}/${channelId}`, { method: 'DELETE', responseType: 'none' });
        return null;
      }
      const schema = values?.isCustom ? customChannelSchema : channelMappingSchema;
      const body = { ...schema.parse(values), isCustom: values?.isCustom ?? false, ...values?.fuel };
      return channelId
        ? apiRequest<DataSourceChannel>(`${base}/${channelId}`, { method: 'PUT', body })
        : apiRequest<DataSourceChannel>(base, { method: 'POST', body });
    },
    onSettled: () => client.invalidateQueries({ queryKey: dataSourceKeys.facility(facilityId) }),
  });
}

/** GET algorithm/facilitydatasource/{id}/suggested-mappings: a proposed column for every field its calculations read. */
export const suggestedMappingsQuery = (dataSourceId: string, fileId?: string) =>
  queryOptions({
    queryKey: suggestionKeys.dataSource(dataSourceId, fileId),
    queryFn: ({ signal }) =>
      apiRequest<SuggestedMappings>(`algorithm/facilitydatasource/${dataSourceId}/suggested-mappings`, {
        signal,
        query: { fileId },
      }),
    // Proposals follow the mappings: read them afresh each time the dialog opens.
    staleTime: 0,
    gcTime: 0,
  });

export const useSuggestedMappings = (dataSourceId: string, fileId?: string) =>
  useQuery(suggestedMappingsQuery(dataSourceId, fileId));

/**
 * PUT algorithm/facilitydatasource/{id}/facilitydatasourcechannels with the whole list, then (optionally) POST the
 * organization's new aliases: the columns chosen instead of the proposed ones.
 */
export function useApplyMappings(facilityId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({
      dataSourceId,
      list,
      aliases,
    }: {
      dataSourceId: string;
      list: ChannelMappingListItem[];
      aliases?: { organizationId: string; field: string; alias: string }[];
    }) => {
      const saved = await apiRequest<DataSourceChannel[]>(
        `algorithm/facilitydatasource/${dataSourceId}/facilitydatasourcechannels`,
        { method: 'PUT', body: list },
      );
      for (const { organizationId, field, alias } of aliases ?? [])
        await apiRequest(`organizations/${organizationId}/channel-aliases`, {
          method: 'POST',
          body: { field, alias },
        });
      return saved;
    },
    onSettled: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: dataSourceKeys.facility(facilityId) }),
        client.invalidateQueries({ queryKey: suggestionKeys.all }),
      ]),
  });
}
