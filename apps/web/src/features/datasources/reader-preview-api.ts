import { useEffect, useState } from 'react';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ReaderPreview, ReaderPreviewBody } from '@portal/contracts/datasources';
import { apiRequest } from '../../lib/api';
import { readerKeys } from './keys';

/** What a preview reads: a file chosen in the dialog (not uploaded yet), or the sample file of a saved data source. */
export type PreviewFile = { kind: 'file'; file: File } | { kind: 'sample'; dataSourceId: string };

/** The wait after the last change of the settings before the preview is asked for again. */
export const PREVIEW_DEBOUNCE_MS = 400;

const fileIds = new WeakMap<File, number>();
let nextFileId = 0;
/** A File's identity for the query key: the same chosen file, the same key. */
function fileKey(source: PreviewFile): string {
  if (source.kind === 'sample') return `sample:${source.dataSourceId}`;
  let id = fileIds.get(source.file);
  if (id === undefined) fileIds.set(source.file, (id = ++nextFileId));
  return `file:${id}`;
}

/**
 * POST algorithm/facility/{id}/datasource/preview (a data source's sample file) or .../preview/file (a chosen file,
 * sent along as multipart: the request as JSON text, then the file).
 */
export const readerPreviewQuery = (
  facilityId: string,
  source: PreviewFile,
  request: Omit<ReaderPreviewBody, 'dataSourceId' | 'fileId'>,
) =>
  queryOptions({
    queryKey: readerKeys.preview(facilityId, fileKey(source), request),
    queryFn: ({ signal }) => {
      const path = `algorithm/facility/${facilityId}/datasource/preview`;
      if (source.kind === 'sample')
        return apiRequest<ReaderPreview>(path, {
          method: 'POST',
          body: { ...request, dataSourceId: source.dataSourceId },
          signal,
        });
      const form = new FormData();
      form.append('request', JSON.stringify(request));
      form.append('file', source.file, source.file.name);
      return apiRequest<ReaderPreview>(`${path}/file`, { method: 'POST', rawBody: form, signal });
    },
    staleTime: Infinity,
    retry: false,
    placeholderData: keepPreviousData,
  });

/** The value once it has not changed for `ms`. */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** The preview of the settings as they are a moment after the last change; nothing to read without a file. */
export function useReaderPreview(
  facilityId: string,
  source: PreviewFile | null,
  request: Omit<ReaderPreviewBody, 'dataSourceId' | 'fileId'> | null,
) {
  const settled = useDebounced(request, PREVIEW_DEBOUNCE_MS);
  return useQuery({
    ...readerPreviewQuery(
      facilityId,
      source ?? { kind: 'sample', dataSourceId: '' },
      settled ?? {
        dataSourceReaderId: '',
        dataSourceReaderConfiguration: '',
      },
    ),
    enabled: source !== null && settled !== null,
  });
}
