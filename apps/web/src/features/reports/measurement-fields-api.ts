import { queryOptions } from '@tanstack/react-query';
import type { MeasurementField } from '@portal/contracts/measurement-fields';
import { apiRequest } from '../../app/api';

/** GET algorithm/measurement-fields: loaded when the report configuration area is entered (inputs of the calculation editor). */
export const measurementFieldsQuery = () =>
  queryOptions({
    queryKey: ['algorithm-measurement-fields'],
    queryFn: ({ signal }) => apiRequest<MeasurementField[]>('algorithm/measurement-fields', { signal }),
    staleTime: 5 * 60_000,
  });
