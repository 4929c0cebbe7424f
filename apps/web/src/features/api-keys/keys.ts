/** Query keys of the API keys feature (only it fetches an organization's keys). */
export const apiKeyKeys = {
  all: ['api-keys'] as const,
  organization: (organizationId: string) => [...apiKeyKeys.all, organizationId] as const,
};
