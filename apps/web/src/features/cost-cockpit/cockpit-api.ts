import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { CostCockpit, FuelPrice, FuelPriceInput } from '@portal/contracts/cost-cockpit';
import { ApiRequestError, apiRequest } from '../../lib/api';

export const cockpitKeys = {
  all: ['cost-cockpit'] as const,
  year: (year: number) => [...cockpitKeys.all, year] as const,
};

export const failureMessage = (error: unknown): string | undefined =>
  error instanceof ApiRequestError && error.status < 500 ? error.body?.message : undefined;

/** GET cost-cockpit?year: every ship's euros per regime and its scrubber's economics. */
export const cockpitQuery = (year: number) =>
  queryOptions({
    queryKey: cockpitKeys.year(year),
    queryFn: ({ signal }) => apiRequest<CostCockpit>('cost-cockpit', { query: { year }, signal }),
  });

/** POST organizations/{id}/fuel-prices: the HSFO and VLSFO prices of a day (its administrator). */
export function useEnterFuelPrice(organizationId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: FuelPriceInput) =>
      apiRequest<FuelPrice>(`organizations/${encodeURIComponent(organizationId)}/fuel-prices`, {
        method: 'POST',
        body,
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: cockpitKeys.all }),
  });
}
