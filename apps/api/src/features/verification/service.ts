import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import {
  MATERIALITY_PERCENT,
  VERIFICATION_MESSAGES,
  misstatementOf,
  type Finding,
  type FindingInput,
  type OpinionRecord,
  type VerificationYear,
} from '@portal/contracts/verification';
import type { z } from 'zod';
import type { opinionInputSchema } from '@portal/contracts/verification';
import type { Database } from '../../db/schema';
import { forbidden, notFound } from '../../errors';
import type { Caller } from '../access/caller';
import { canManageOrganization, isSystemAdmin } from '../access/policy';
import { auditedChange } from '../audit/audit';
import { chainHash, GENESIS_HASH } from '../../storage';
import { yearFigures } from './figures';

/**
 * A year's verification of an organization (docs/decisions/0115-verifier.md): its findings and its opinions, each
 * opinion chained to the one before by the record book's chain rule (storage/record-book.ts `chainHash`) and holding
 * the fingerprint of the figures it was given on.
 */

/** Who may open an organization's year: its invited verifier, or whoever administers the organization. */
export function requireYearAccess(
  caller: Caller,
  organizationId: string,
  year: number,
): { mayRecord: boolean } {
  if (caller.role === 'Verifier' && !caller.apiKey) {
    if (caller.organizationId !== organizationId) throw notFound('Organization not found');
    if (!(caller.verifierYears ?? []).includes(year)) throw forbidden(VERIFICATION_MESSAGES.yearNotInvited);
    return { mayRecord: true };
  }
  if (canManageOrganization(caller, organizationId)) return { mayRecord: false };
  if (caller.organizationId === organizationId && !isSystemAdmin(caller))
    throw forbidden('Only an administrator or the invited verifier may see the verification');
  throw notFound('Organization not found');
}

/** Only the invited verifier records findings and opinions. */
export function requireRecording(caller: Caller, organizationId: string, year: number): void {
  const { mayRecord } = requireYearAccess(caller, organizationId, year);
  if (!mayRecord) throw forbidden(VERIFICATION_MESSAGES.verifierOnly);
}

type FindingRow = Awaited<ReturnType<typeof findingRows>>[number];
type OpinionRow = Awaited<ReturnType<typeof opinionRows>>[number];

function findingRows(db: Kysely<Database>, organizationId: string, year: number) {
  return db
    .selectFrom('verification_findings')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('year', '=', year)
    .orderBy('recorded_on')
    .orderBy('id')
    .execute();
}

function opinionRows(db: Kysely<Database>, organizationId: string, year: number) {
  return db
    .selectFrom('verification_opinions')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('year', '=', year)
    .orderBy('sequence')
    .execute();
}

const presentFinding = (r: FindingRow): Finding => ({
  id: r.id,
  year: r.year,
  facilityId: r.facility_id,
  kind: r.kind,
  description: r.description,
  figure: r.figure,
  evidence: r.evidence,
  reportedValue: r.reported_value,
  evidenceValue: r.evidence_value,
  differencePercent: r.difference_percent,
  aboveThreshold: r.above_threshold,
  recordedBy: r.recorded_by_name,
  recordedOn: new Date(r.recorded_on).toISOString(),
  version: r.version,
});

const presentOpinion = (r: OpinionRow): OpinionRecord => ({
  id: r.id,
  year: r.year,
  opinion: r.opinion,
  comment: r.comment,
  version: r.version,
  figuresFingerprint: r.figures_fingerprint,
  findingIds: r.finding_ids,
  sequence: r.sequence,
  previousHash: r.previous_hash,
  hash: r.hash,
  recordedBy: r.recorded_by_name,
  recordedOn: new Date(r.recorded_on).toISOString(),
});

/** What an opinion's hash covers (with the previous hash): everything but its id and the frozen figures' body. */
function opinionContent(r: Omit<OpinionRow, 'id' | 'hash' | 'previous_hash' | 'figures'>) {
  return {
    organizationId: r.organization_id,
    year: r.year,
    sequence: r.sequence,
    opinion: r.opinion,
    comment: r.comment,
    version: r.version,
    figuresFingerprint: r.figures_fingerprint,
    findingIds: r.finding_ids,
    recordedBy: r.recorded_by,
    recordedByName: r.recorded_by_name,
    recordedOn: new Date(r.recorded_on).toISOString(),
  };
}

/** Whether every opinion's hash is its content's under the chain rule, each linked to the one before. */
export function opinionChainIntact(rows: readonly OpinionRow[]): boolean {
  let previous = GENESIS_HASH;
  for (const r of rows) {
    if (r.previous_hash !== previous || chainHash(previous, opinionContent(r)) !== r.hash) return false;
    previous = r.hash;
  }
  return true;
}

/** The version of figures with this fingerprint after these opinions: the last one's, or one more once they differ. */
function versionOf(
  opinions: readonly { version: number; figures_fingerprint: string }[],
  fingerprint: string,
) {
  const last = opinions.at(-1);
  if (!last) return 1;
  return last.figures_fingerprint === fingerprint ? last.version : last.version + 1;
}

export async function verificationYear(
  db: Kysely<Database>,
  caller: Caller,
  organizationId: string,
  year: number,
): Promise<VerificationYear> {
  const { mayRecord } = requireYearAccess(caller, organizationId, year);
  const organization = await db
    .selectFrom('organizations')
    .select('name')
    .where('id', '=', organizationId)
    .executeTakeFirst();
  if (!organization) throw notFound('Organization not found');
  const [figures, findings, opinions] = await Promise.all([
    yearFigures(db, organizationId, year),
    findingRows(db, organizationId, year),
    opinionRows(db, organizationId, year),
  ]);
  const last = opinions.at(-1);
  const years =
    caller.role === 'Verifier'
      ? (caller.verifierYears ?? [])
      : Array.from({ length: 6 }, (_, i) => new Date().getUTCFullYear() - i);
  return {
    organizationId,
    organizationName: organization.name,
    year,
    years,
    from: new Date(figures.from).toISOString(),
    to: new Date(figures.to).toISOString(),
    thresholdPercent: MATERIALITY_PERCENT,
    ships: figures.ships,
    suggestedMisstatements: figures.suggestedMisstatements,
    findings: findings.map(presentFinding),
    opinions: opinions.map(presentOpinion),
    version: versionOf(opinions, figures.fingerprint),
    figuresFingerprint: figures.fingerprint,
    state: !last ? 'open' : last.figures_fingerprint === figures.fingerprint ? 'locked' : 'changed',
    mayRecord,
    chainIntact: opinionChainIntact(opinions),
  };
}

/** One writer per organization's year at a time: its findings' versions and its chain stay in order. */
async function lockYear(trx: Transaction<Database>, organizationId: string, year: number) {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`verification:${organizationId}:${year}`}, 0))`.execute(
    trx,
  );
}

async function assertOwnShip(db: Kysely<Database>, organizationId: string, facilityId: string | null) {
  if (facilityId === null) return;
  const ship = await db
    .selectFrom('facilities')
    .select('id')
    .where('id', '=', facilityId)
    .where('primary_organization_id', '=', organizationId)
    .executeTakeFirst();
  if (!ship) throw notFound('Ship not found');
}

export async function recordFinding(
  db: Kysely<Database>,
  caller: Caller,
  organizationId: string,
  year: number,
  input: FindingInput,
): Promise<Finding> {
  requireRecording(caller, organizationId, year);
  await assertOwnShip(db, organizationId, input.facilityId);
  const figures = await yearFigures(db, organizationId, year);
  const { differencePercent, aboveThreshold } =
    input.kind === 'misstatement'
      ? misstatementOf(input.reportedValue, input.evidenceValue)
      : { differencePercent: null, aboveThreshold: false };
  const row = await auditedChange(
    db,
    caller,
    async (trx) => {
      await lockYear(trx, organizationId, year);
      const opinions = await trx
        .selectFrom('verification_opinions')
        .select(['version', 'figures_fingerprint'])
        .where('organization_id', '=', organizationId)
        .where('year', '=', year)
        .orderBy('sequence')
        .execute();
      return trx
        .insertInto('verification_findings')
        .values({
          organization_id: organizationId,
          year,
          facility_id: input.facilityId,
          kind: input.kind,
          description: input.description,
          figure: input.figure,
          evidence: input.evidence,
          reported_value: input.reportedValue,
          evidence_value: input.evidenceValue,
          difference_percent: differencePercent,
          above_threshold: aboveThreshold,
          version: versionOf(opinions, figures.fingerprint),
          recorded_by: caller.userId,
          recorded_by_name: caller.username,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    },
    (r) => ({
      action: 'verification.finding',
      subject: r.id,
      detail: { organizationId, year, kind: r.kind, aboveThreshold: r.above_threshold },
    }),
  );
  return presentFinding(row);
}

export async function recordOpinion(
  db: Kysely<Database>,
  caller: Caller,
  organizationId: string,
  year: number,
  input: z.output<typeof opinionInputSchema>,
): Promise<OpinionRecord> {
  requireRecording(caller, organizationId, year);
  const figures = await yearFigures(db, organizationId, year);
  const row = await auditedChange(
    db,
    caller,
    async (trx) => {
      await lockYear(trx, organizationId, year);
      const opinions = await trx
        .selectFrom('verification_opinions')
        .select(['version', 'figures_fingerprint', 'sequence', 'hash'])
        .where('organization_id', '=', organizationId)
        .where('year', '=', year)
        .orderBy('sequence')
        .execute();
      const findings = await trx
        .selectFrom('verification_findings')
        .select('id')
        .where('organization_id', '=', organizationId)
        .where('year', '=', year)
        .orderBy('recorded_on')
        .orderBy('id')
        .execute();
      const last = opinions.at(-1);
      const fields = {
        organization_id: organizationId,
        year,
        sequence: (last?.sequence ?? 0) + 1,
        opinion: input.opinion,
        comment: input.comment,
        version: versionOf(opinions, figures.fingerprint),
        figures_fingerprint: figures.fingerprint,
        finding_ids: findings.map((f) => f.id),
        recorded_by: caller.userId,
        recorded_by_name: caller.username,
        recorded_on: new Date(Math.floor(Date.now())),
      };
      const previousHash = last?.hash ?? GENESIS_HASH;
      return trx
        .insertInto('verification_opinions')
        .values({
          ...fields,
          id: randomUUID(),
          figures: JSON.stringify(figures.frozen),
          previous_hash: previousHash,
          hash: chainHash(previousHash, opinionContent(fields)),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    },
    (r) => ({
      action: 'verification.opinion',
      subject: r.id,
      detail: { organizationId, year, opinion: r.opinion, version: r.version, hash: r.hash },
    }),
  );
  return presentOpinion(row);
}
