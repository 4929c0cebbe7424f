import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  newInspectionPackSchema,
  type InspectionPack,
  type InspectionPackSchedule,
  type NewInspectionPack,
} from '@portal/contracts/inspection-packs';
import { ApiRequestError, apiRequest } from '../../lib/api';
import { saveBlob } from '../../ui/files/save-blob';
import { inspectionPackKeys } from './keys';

const base = (facilityId: string) => `facilities/${encodeURIComponent(facilityId)}/inspection-packs`;

/** The server's message of a refused request (4xx), for the notification; else the default text. */
export const failureMessage = (error: unknown): string | undefined =>
  error instanceof ApiRequestError && error.status < 500 ? error.body?.message : undefined;

/** A pack still on its way: the list is asked again every 1.5 s until none is. */
export const isBuilding = (pack: Pick<InspectionPack, 'state'>) =>
  pack.state === 'queued' || pack.state === 'building';

/** GET facilities/{id}/inspection-packs, polled while a pack is being built. */
export const inspectionPacksQuery = (facilityId: string) =>
  queryOptions({
    queryKey: inspectionPackKeys.list(facilityId),
    queryFn: ({ signal }) => apiRequest<InspectionPack[]>(base(facilityId), { signal }),
    refetchInterval: (query) => (query.state.data?.some(isBuilding) ? 1500 : false),
  });

/** POST facilities/{id}/inspection-packs: queues the build; the list shows its progress. */
export function useBuildInspectionPack(facilityId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: NewInspectionPack) =>
      apiRequest<InspectionPack>(base(facilityId), {
        method: 'POST',
        body: newInspectionPackSchema.parse(body),
      }),
    onSuccess: (pack) => {
      client.setQueryData<InspectionPack[]>(inspectionPackKeys.list(facilityId), (list) => [
        pack,
        ...(list ?? []).filter((p) => p.id !== pack.id),
      ]);
      void client.invalidateQueries({ queryKey: inspectionPackKeys.list(facilityId) });
    },
  });
}

/** GET …/{packId}/download: the zip, saved under its name. */
export async function downloadInspectionPack(pack: Pick<InspectionPack, 'id' | 'facilityId' | 'fileName'>) {
  const zip = await apiRequest<Blob>(`${base(pack.facilityId)}/${encodeURIComponent(pack.id)}/download`, {
    responseType: 'blob',
  });
  saveBlob(zip, pack.fileName);
}

/** GET facilities/{id}/inspection-packs/schedule: the caller's organization's monthly pack of the ship. */
export const inspectionPackScheduleQuery = (facilityId: string) =>
  queryOptions({
    queryKey: inspectionPackKeys.schedule(facilityId),
    queryFn: ({ signal }) => apiRequest<InspectionPackSchedule>(`${base(facilityId)}/schedule`, { signal }),
  });

/** PUT (recipients) or DELETE (stop) the monthly pack; the answer is the schedule as it is now. */
export function useSaveInspectionPackSchedule(facilityId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (recipientIds: string[] | null) =>
      apiRequest<InspectionPackSchedule>(`${base(facilityId)}/schedule`, {
        method: recipientIds ? 'PUT' : 'DELETE',
        ...(recipientIds ? { body: { recipientIds } } : {}),
      }),
    onSuccess: (schedule) => client.setQueryData(inspectionPackKeys.schedule(facilityId), schedule),
  });
}
