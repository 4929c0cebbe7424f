/** Query keys of the data retention feature (only it fetches an organization's retention). */
export const retentionKeys = {
  all: ['retention'] as const,
  organization: (organizationId: string) => [...retentionKeys.all, organizationId] as const,
};
