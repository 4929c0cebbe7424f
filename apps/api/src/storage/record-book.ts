import { createHash, randomUUID } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../db/schema';

/**
 * The EGCS record book of a ship (MEPC.312(74) electronic record books; docs/decisions/0080-compliance-events.md):
 * entries appended in sequence, never changed (a trigger refuses UPDATE and DELETE; a correction is a new entry
 * referring to the one it corrects), each hash covering the entry and the previous entry's hash, so that a change
 * made behind the portal's back, even with the trigger disabled, is found by {@link verifyRecordBook}.
 */
export interface RecordBookEntryInput {
  kind: string;
  /** When what the entry records happened (UTC). */
  occurredOn: Date;
  recordedBy: string | null;
  recordedByName: string;
  latitude: number | null;
  longitude: number | null;
  eventId: string | null;
  correctsId: string | null;
  body: Record<string, unknown>;
}

export interface RecordBookEntry extends RecordBookEntryInput {
  id: string;
  facilityId: string;
  sequence: number;
  recordedOn: Date;
  previousHash: string;
  hash: string;
}

/** The previous hash of a book's first entry. */
export const GENESIS_HASH = '0'.repeat(64);

/** JSON with the keys of every object in code-point order, so that equal content always hashes alike. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/**
 * The chain rule: SHA-256 (hex) of the previous link's hash, a newline and the content's canonical JSON. The record
 * book's entries use it, and so do the verification opinions (features/verification, docs/decisions/0115).
 */
export function chainHash(previousHash: string, content: unknown): string {
  return createHash('sha256')
    .update(`${previousHash}\n${canonicalJson(content)}`)
    .digest('hex');
}

/** SHA-256 (hex) of the previous hash and the entry's content. */
export function entryHash(entry: Omit<RecordBookEntry, 'id' | 'hash'>): string {
  return chainHash(entry.previousHash, {
    facilityId: entry.facilityId,
    sequence: entry.sequence,
    kind: entry.kind,
    occurredOn: entry.occurredOn.toISOString(),
    recordedOn: entry.recordedOn.toISOString(),
    recordedBy: entry.recordedBy,
    recordedByName: entry.recordedByName,
    latitude: entry.latitude,
    longitude: entry.longitude,
    eventId: entry.eventId,
    correctsId: entry.correctsId,
    body: entry.body,
  });
}

/**
 * Appends entries to a ship's book inside the caller's transaction (one writer per ship at a time: a transaction
 * lock on the ship's book), chaining each to the last. Returns the stored entries.
 */
export async function appendRecordBookEntries(
  trx: Transaction<Database>,
  facilityId: string,
  inputs: readonly RecordBookEntryInput[],
): Promise<RecordBookEntry[]> {
  if (inputs.length === 0) return [];
  await sql`select pg_advisory_xact_lock(hashtextextended(${`record-book:${facilityId}`}, 0))`.execute(trx);
  const last = await trx
    .selectFrom('record_book_entries')
    .select(['sequence', 'hash'])
    .where('facility_id', '=', facilityId)
    .orderBy('sequence', 'desc')
    .limit(1)
    .executeTakeFirst();
  let sequence = last ? Number(last.sequence) : 0;
  let previousHash = last?.hash ?? GENESIS_HASH;
  // Microseconds are all PostgreSQL keeps; milliseconds are all the hash sees.
  const recordedOn = new Date(Date.now());
  const stored: RecordBookEntry[] = [];
  for (const input of inputs) {
    sequence += 1;
    const entry = {
      ...input,
      id: randomUUID(),
      facilityId,
      sequence,
      recordedOn,
      occurredOn: new Date(input.occurredOn.getTime()),
      previousHash,
    };
    const hash = entryHash(entry);
    stored.push({ ...entry, hash });
    previousHash = hash;
  }
  for (let at = 0; at < stored.length; at += 1000)
    await trx
      .insertInto('record_book_entries')
      .values(
        stored.slice(at, at + 1000).map((entry) => ({
          id: entry.id,
          facility_id: facilityId,
          sequence: entry.sequence,
          kind: entry.kind,
          occurred_on: entry.occurredOn,
          recorded_on: entry.recordedOn,
          recorded_by: entry.recordedBy,
          recorded_by_name: entry.recordedByName,
          latitude: entry.latitude,
          longitude: entry.longitude,
          event_id: entry.eventId,
          corrects_id: entry.correctsId,
          body: JSON.stringify(entry.body),
          previous_hash: entry.previousHash,
          hash: entry.hash,
        })),
      )
      .execute();
  return stored;
}

function entryOf(row: {
  id: string;
  facility_id: string;
  sequence: string | number;
  kind: string;
  occurred_on: Date;
  recorded_on: Date;
  recorded_by: string | null;
  recorded_by_name: string;
  latitude: number | null;
  longitude: number | null;
  event_id: string | null;
  corrects_id: string | null;
  body: unknown;
  previous_hash: string;
  hash: string;
}): RecordBookEntry {
  return {
    id: row.id,
    facilityId: row.facility_id,
    sequence: Number(row.sequence),
    kind: row.kind,
    occurredOn: new Date(row.occurred_on),
    recordedOn: new Date(row.recorded_on),
    recordedBy: row.recorded_by,
    recordedByName: row.recorded_by_name,
    latitude: row.latitude,
    longitude: row.longitude,
    eventId: row.event_id,
    correctsId: row.corrects_id,
    body: (typeof row.body === 'string' ? JSON.parse(row.body) : row.body) as Record<string, unknown>,
    previousHash: row.previous_hash,
    hash: row.hash,
  };
}

/** A ship's entries in sequence, optionally those that occurred inside [from, to). */
export async function readRecordBook(
  db: Kysely<Database>,
  facilityId: string,
  range: { from?: Date; to?: Date } = {},
): Promise<RecordBookEntry[]> {
  let query = db.selectFrom('record_book_entries').selectAll().where('facility_id', '=', facilityId);
  if (range.from) query = query.where('occurred_on', '>=', range.from);
  if (range.to) query = query.where('occurred_on', '<', range.to);
  const rows = await query.orderBy('sequence').execute();
  return rows.map(entryOf);
}

/** One entry of a ship's book by its id: what a correction of it needs to know (undefined when not in that book). */
export async function findRecordBookEntry(
  db: Kysely<Database>,
  facilityId: string,
  id: string,
): Promise<{ kind: string; occurredOn: Date; body: Record<string, unknown> } | undefined> {
  const row = await db
    .selectFrom('record_book_entries')
    .select(['kind', 'occurred_on', 'body'])
    .where('id', '=', id)
    .where('facility_id', '=', facilityId)
    .executeTakeFirst();
  return row
    ? {
        kind: row.kind,
        occurredOn: new Date(row.occurred_on),
        body: (typeof row.body === 'string' ? JSON.parse(row.body) : row.body) as Record<string, unknown>,
      }
    : undefined;
}

/** A ship's entries of these kinds, in sequence: their id, time, what they correct and body. */
export async function readRecordBookKinds(
  db: Kysely<Database>,
  facilityId: string,
  kinds: readonly string[],
): Promise<Pick<RecordBookEntry, 'id' | 'kind' | 'occurredOn' | 'correctsId' | 'body'>[]> {
  if (kinds.length === 0) return [];
  const rows = await db
    .selectFrom('record_book_entries')
    .select(['id', 'kind', 'occurred_on', 'corrects_id', 'body'])
    .where('facility_id', '=', facilityId)
    .where('kind', 'in', [...kinds])
    .orderBy('sequence')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    occurredOn: new Date(row.occurred_on),
    correctsId: row.corrects_id,
    body: (typeof row.body === 'string' ? JSON.parse(row.body) : row.body) as Record<string, unknown>,
  }));
}

export type VerifyResult =
  | { valid: true; entries: number }
  | { valid: false; entries: number; firstInvalid: { id: string; sequence: number; reason: string } };

/** Recomputes the chain from the first entry; names the first entry whose hash, link or sequence does not match. */
export async function verifyRecordBook(db: Kysely<Database>, facilityId: string): Promise<VerifyResult> {
  const entries = await readRecordBook(db, facilityId);
  let previousHash = GENESIS_HASH;
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!;
    const fail = (reason: string): VerifyResult => ({
      valid: false,
      entries: entries.length,
      firstInvalid: { id: entry.id, sequence: entry.sequence, reason },
    });
    if (entry.sequence !== i + 1) return fail(`Entry ${i + 1} is missing`);
    if (entry.previousHash !== previousHash) return fail('It does not refer to the entry before it');
    if (entryHash(entry) !== entry.hash) return fail('Its content does not match its hash');
    previousHash = entry.hash;
  }
  return { valid: true, entries: entries.length };
}
