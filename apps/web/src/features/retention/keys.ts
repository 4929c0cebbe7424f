/** Query keys of the data retention feature (only it fetches an organization's retention and the storage months). */
export const retentionKeys = {
  all: ['retention'] as const,
  organization: (organizationId: string) => [...retentionKeys.all, organizationId] as const,
  storageMonths: () => [...retentionKeys.all, 'storage-months'] as const,
};
