import { useQuery } from '@tanstack/react-query';
import type { Facility } from '@portal/contracts/facilities';
import { apiRequest } from '../../lib/api';
import { organizationKeys } from '../../lib/queries/keys';

export interface OrganizationChoice {
  id: string;
  name: string;
}

const byName = (a: OrganizationChoice, b: OrganizationChoice) =>
  a.name.localeCompare(b.name, 'en', { sensitivity: 'base' });

/** The owners of the ships in the list: the choices when the organizations call is not available. */
export function organizationsFromFacilities(
  facilities: readonly Pick<Facility, 'primaryOrganizationId' | 'primaryOrganizationName'>[],
): OrganizationChoice[] {
  const seen = new Map<string, string>();
  for (const f of facilities) seen.set(f.primaryOrganizationId, f.primaryOrganizationName);
  return [...seen].map(([id, name]) => ({ id, name })).sort(byName);
}

/**
 * The organizations a new ship can belong to: GET organizations when it answers (SystemAdmin), else derived
 * from the ship list (an organization without ships is then missing).
 */
export function useOrganizationChoices(
  facilities: readonly Facility[] | undefined,
  enabled: boolean,
): OrganizationChoice[] {
  const { data } = useQuery({
    queryKey: organizationKeys.choices(),
    enabled,
    retry: false,
    queryFn: async ({ signal }) => {
      try {
        const list = await apiRequest<{ id: string; name: string }[]>('organizations', { signal });
        return Array.isArray(list) ? list.map(({ id, name }) => ({ id, name })).sort(byName) : null;
      } catch {
        return null;
      }
    },
  });
  return data ?? organizationsFromFacilities(facilities ?? []);
}
