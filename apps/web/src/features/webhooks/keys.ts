/** Query keys of an organization's webhooks and their delivery logs (only this feature reads them). */
export const webhookKeys = {
  all: ['webhooks'] as const,
  list: (organizationId: string) => [...webhookKeys.all, organizationId, 'list'] as const,
  deliveries: (organizationId: string, webhookId: string) =>
    [...webhookKeys.all, organizationId, webhookId, 'deliveries'] as const,
};
