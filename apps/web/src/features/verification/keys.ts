/** Query keys of the verification (only this feature fetches it): an organization's verifiers and its years. */
export const verificationKeys = {
  all: ['verification'] as const,
  organization: (organizationId: string) => [...verificationKeys.all, organizationId] as const,
  verifiers: (organizationId: string) =>
    [...verificationKeys.organization(organizationId), 'verifiers'] as const,
  year: (organizationId: string, year: number) =>
    [...verificationKeys.organization(organizationId), 'year', year] as const,
};
