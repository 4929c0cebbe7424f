import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type GeneratedTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;

/** Migration 0030 (docs/decisions/0115-verifier.md). */
export interface VerifierInvitationsTable {
  user_id: string;
  organization_id: string;
  email: string;
  token_sha256: string;
  invited_by: string | null;
  invited_on: GeneratedTimestamp;
  accepted_on: Timestamp | null;
}

export interface VerifierYearsTable {
  user_id: string;
  year: number;
}

export interface VerificationFindingsTable {
  id: Generated<string>;
  organization_id: string;
  year: number;
  facility_id: string | null;
  kind: 'non-conformity' | 'misstatement';
  description: string;
  figure: string | null;
  evidence: string | null;
  reported_value: number | null;
  evidence_value: number | null;
  difference_percent: number | null;
  above_threshold: boolean;
  version: number;
  recorded_by: string | null;
  recorded_by_name: string;
  recorded_on: GeneratedTimestamp;
}

export interface VerificationOpinionsTable {
  id: string;
  organization_id: string;
  year: number;
  sequence: number;
  opinion: 'satisfactory' | 'satisfactory-with-comments' | 'not-verified';
  comment: string;
  version: number;
  figures_fingerprint: string;
  figures: ColumnType<unknown, string, string>;
  finding_ids: string[];
  recorded_by: string | null;
  recorded_by_name: string;
  recorded_on: Timestamp;
  previous_hash: string;
  hash: string;
}

export interface VerificationTables {
  verifier_invitations: VerifierInvitationsTable;
  verifier_years: VerifierYearsTable;
  verification_findings: VerificationFindingsTable;
  verification_opinions: VerificationOpinionsTable;
}
