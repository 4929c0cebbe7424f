import { queryOptions } from '@tanstack/react-query';
import type { MeasurementField } from '@portal/contracts/measurement-fields';
import { apiRequest } from '../../lib/api';
import { measurementFieldCatalogueKeys } from './keys';

/** GET algorithm/measurement-fields: loaded when the report configuration area is entered (inputs of the calculation editor). */
export const measurementFieldsQuery = () =>
  queryOptions({
    queryKey: measurementFieldCatalogueKeys.all,
    queryFn: ({ signal }) => apiRequest<MeasurementField[]>('algorithm/measurement-fields', { signal }),
    staleTime: 5 * 60_000,
  });
