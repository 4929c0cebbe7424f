import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { FacilityDocument } from '@portal/contracts/documents';
import { documentFieldsSchema } from '@portal/contracts/documents';
import { apiRequest } from '../../lib/api';
import { messageKeys } from '../../lib/queries/keys';
import { documentKeys } from './keys';

export { documentFieldsSchema };

/** GET facilities/documents: the documents of the ships the user sees. */
export const documentsQuery = () =>
  queryOptions({
    queryKey: documentKeys.all,
    queryFn: ({ signal }) => apiRequest<FacilityDocument[]>('facilities/documents', { signal }),
  });

/** POST facilities/documents/download with fileRef: the file as a blob. */
export const downloadDocument = (fileRef: string) =>
  apiRequest<Blob>('facilities/documents/download', {
    method: 'POST',
    body: { fileRef },
    responseType: 'blob',
  });

/** PUT users/{id}/visit with section FacilityDocuments: marks the active document messages read. */
export function useRecordVisit() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) =>
      apiRequest(`users/${encodeURIComponent(userId)}/visit`, {
        method: 'PUT',
        body: { section: 'FacilityDocuments' },
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: messageKeys.all }),
  });
}

/** POST facilities/{id}/documents (SystemAdmin): multipart with the file and its fields. */
export function useUploadDocument() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({
      facilityId,
      file,
      fields,
    }: {
      facilityId: string;
      file: File;
      fields: Record<string, string>;
    }) => {
      documentFieldsSchema.parse(fields);
      const form = new FormData();
      for (const [k, v] of Object.entries(fields)) form.append(k, v);
      form.append('file', file, file.name);
      return apiRequest<FacilityDocument>(`facilities/${encodeURIComponent(facilityId)}/documents`, {
        method: 'POST',
        rawBody: form,
      });
    },
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: documentKeys.all }),
        client.invalidateQueries({ queryKey: messageKeys.all }),
      ]),
  });
}

/** DELETE facilities/documents/{fileId} (SystemAdmin): the document and its file; the list is fetched again. */
export function useDeleteDocument() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (fileId: string) =>
      apiRequest(`facilities/documents/${encodeURIComponent(fileId)}`, {
        method: 'DELETE',
        responseType: 'none',
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: documentsQuery().queryKey }),
  });
}
