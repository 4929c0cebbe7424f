/** Query keys of the alerts feature (read and refreshed by it alone). */
export const alertKeys = {
  all: ['alerts'] as const,
  subscription: () => [...alertKeys.all, 'subscription'] as const,
  defaults: (organizationId: string) => [...alertKeys.all, 'defaults', organizationId] as const,
  outboxes: () => [...alertKeys.all, 'outbox'] as const,
  outbox: (params: object) => [...alertKeys.outboxes(), params] as const,
};
