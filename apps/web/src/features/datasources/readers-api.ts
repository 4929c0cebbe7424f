import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DataSourceReader } from '@portal/contracts/datasources';
import { apiRequest } from '../../lib/api';
import { readerKeys } from './keys';

/** GET algorithm/datasourcereader: the readers (parser providers) with their default configuration. */
export const readersQuery = () =>
  queryOptions({
    queryKey: readerKeys.all,
    queryFn: ({ signal }) => apiRequest<DataSourceReader[]>('algorithm/datasourcereader', { signal }),
    staleTime: Infinity,
  });

export const useReaders = () => useQuery(readersQuery());
