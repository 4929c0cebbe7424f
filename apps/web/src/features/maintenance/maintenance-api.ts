import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { AuditLogPage, AuditLogQuery } from '@portal/contracts/audit';
import type { OrganizationListItem } from '@portal/contracts/organizations';
import type { Maintenance } from '@portal/contracts/settings';
import { apiRequest } from '../../lib/api';
import { organizationKeys } from '../../lib/queries/keys';
import { auditLogKeys, settingsKeys } from './keys';

/** GET settings/maintenance. */
export const maintenanceQuery = () =>
  queryOptions({
    queryKey: settingsKeys.maintenance(),
    queryFn: ({ signal }) => apiRequest<Maintenance>('settings/maintenance', { signal }),
  });

/** PUT settings/maintenance. */
export function useSetMaintenance() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (maintenance: boolean) =>
      apiRequest<Maintenance>('settings/maintenance', { method: 'PUT', body: { maintenance } }),
    onSuccess: () => client.invalidateQueries({ queryKey: settingsKeys.all }),
    onSettled: () => client.invalidateQueries({ queryKey: auditLogKeys.all }),
  });
}

/** GET audit-log with the screen's filters; the last page stays shown while the next loads. */
export const auditLogQuery = (query: AuditLogQuery) =>
  queryOptions({
    queryKey: auditLogKeys.page(query),
    queryFn: ({ signal }) =>
      apiRequest<AuditLogPage>('audit-log', { signal, query: { ...query } as Record<string, string> }),
    placeholderData: keepPreviousData,
  });

/** GET audit-log/actions: the actions recorded so far. */
export const auditActionsQuery = () =>
  queryOptions({
    queryKey: auditLogKeys.actions(),
    queryFn: ({ signal }) => apiRequest<string[]>('audit-log/actions', { signal }),
  });

/** GET organizations (SystemAdmin: all), for the organization filter. */
export const organizationOptionsQuery = () =>
  queryOptions({
    queryKey: organizationKeys.list(),
    queryFn: ({ signal }) => apiRequest<OrganizationListItem[]>('organizations', { signal }),
  });
