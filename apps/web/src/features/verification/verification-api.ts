import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  findingInputSchema,
  opinionInputSchema,
  verifierInviteBodySchema,
  type Finding,
  type FindingInput,
  type OpinionInput,
  type OpinionRecord,
  type VerificationYear,
  type Verifier,
  type VerifierInviteBody,
} from '@portal/contracts/verification';
import { ApiRequestError, apiRequest } from '../../lib/api';
import { verificationKeys } from './keys';

const organization = (organizationId: string) => `organizations/${encodeURIComponent(organizationId)}`;
const yearPath = (organizationId: string, year: number) =>
  `${organization(organizationId)}/verification/${encodeURIComponent(String(year))}`;

/** The server's message of a refused request (4xx), for the notification or the dialog; else undefined. */
export const failureMessage = (error: unknown): string | undefined =>
  error instanceof ApiRequestError && error.status < 500 ? error.body?.message : undefined;

/** GET organizations/{id}/verification/{year}: the year's figures, findings, opinions and state. */
export const verificationYearQuery = (organizationId: string, year: number) =>
  queryOptions({
    queryKey: verificationKeys.year(organizationId, year),
    queryFn: ({ signal }) => apiRequest<VerificationYear>(yearPath(organizationId, year), { signal }),
  });

/** GET organizations/{id}/verifiers: the invited verifiers (administrators). */
export const verifiersQuery = (organizationId: string) =>
  queryOptions({
    queryKey: verificationKeys.verifiers(organizationId),
    queryFn: ({ signal }) => apiRequest<Verifier[]>(`${organization(organizationId)}/verifiers`, { signal }),
  });

/** POST organizations/{id}/verifiers: invites by e-mail. */
export function useInviteVerifier(organizationId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: VerifierInviteBody) =>
      apiRequest<Verifier>(`${organization(organizationId)}/verifiers`, {
        method: 'POST',
        body: verifierInviteBodySchema.parse(body),
      }),
    onSuccess: () => void client.invalidateQueries({ queryKey: verificationKeys.verifiers(organizationId) }),
  });
}

/** POST …/verification/{year}/findings. */
export function useRecordFinding(organizationId: string, year: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: FindingInput) =>
      apiRequest<Finding>(`${yearPath(organizationId, year)}/findings`, {
        method: 'POST',
        body: findingInputSchema.parse(body),
      }),
    onSuccess: () => void client.invalidateQueries({ queryKey: verificationKeys.year(organizationId, year) }),
  });
}

/** POST …/verification/{year}/opinions. */
export function useRecordOpinion(organizationId: string, year: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: OpinionInput) =>
      apiRequest<OpinionRecord>(`${yearPath(organizationId, year)}/opinions`, {
        method: 'POST',
        body: opinionInputSchema.parse(body),
      }),
    onSuccess: () => void client.invalidateQueries({ queryKey: verificationKeys.year(organizationId, year) }),
  });
}
