import { useMutation, useQueryClient } from '@tanstack/react-query';
import { newShipSchema, type NewShipValues } from '@portal/contracts/forms';
import { apiRequest } from '../../lib/api';
import { facilityKeys } from '../../lib/queries/keys';

export { newShipSchema };

/** POST facilities with organizationId and name; answers the new ship's id. */
export function useCreateFacility() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (values: NewShipValues) =>
      apiRequest<{ id: string }>('facilities', { method: 'POST', body: newShipSchema.parse(values) }),
    onSuccess: () => client.invalidateQueries({ queryKey: facilityKeys.all }),
  });
}
