import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ComplianceCalendar, DeadlineDoneInput } from '@portal/contracts/compliance-calendar';
import type { DeadlineCode } from '@portal/contracts/rules/carbon';
import { ApiRequestError, apiRequest } from '../../lib/api';

export const calendarKeys = {
  all: ['compliance-calendar'] as const,
  year: (organizationId: string, year: number) => [...calendarKeys.all, organizationId, year] as const,
};

const base = (organizationId: string) =>
  `organizations/${encodeURIComponent(organizationId)}/compliance-calendar`;

/** The server's message of a refused request (4xx); else undefined (the default text). */
export const failureMessage = (error: unknown): string | undefined =>
  error instanceof ApiRequestError && error.status < 500 ? error.body?.message : undefined;

/** GET organizations/{id}/compliance-calendar?year: the year's deadlines with their state. */
export const calendarQuery = (organizationId: string, year: number) =>
  queryOptions({
    queryKey: calendarKeys.year(organizationId, year),
    queryFn: ({ signal }) =>
      apiRequest<ComplianceCalendar>(base(organizationId), { query: { year }, signal }),
  });

/** PUT (done) or DELETE (taken back) organizations/{id}/compliance-calendar/{year}/{code}. */
export function useDeadlineDone(organizationId: string, year: number) {
  const client = useQueryClient();
  const path = (code: DeadlineCode) => `${base(organizationId)}/${year}/${code}`;
  const settle = (calendar: ComplianceCalendar) =>
    client.setQueryData(calendarKeys.year(organizationId, year), calendar);
  return {
    done: useMutation({
      mutationFn: ({ code, body }: { code: DeadlineCode; body: DeadlineDoneInput }) =>
        apiRequest<ComplianceCalendar>(path(code), { method: 'PUT', body }),
      onSuccess: settle,
    }),
    undone: useMutation({
      mutationFn: (code: DeadlineCode) => apiRequest<ComplianceCalendar>(path(code), { method: 'DELETE' }),
      onSuccess: settle,
    }),
  };
}
