import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { fleetCiiSchema } from '@portal/contracts/carbon';
import type { Database } from '../../db/schema';
import type { Caller } from '../access/caller';
import { visibilityKey } from '../access/policy';
import { reportsVersion, VersionedAnswers } from '../reports/cache';
import { AnswerBytes } from '../reports/report-data';
import { fleetCii } from './reports';

/**
 * The fleet CII card's answers (GET /api/cii/fleet), made once and kept per process like the dashboards' report
 * answers (features/reports/report-data.ts; docs/decisions/0138-fleet-cii-answers.md): the answer as JSON bytes
 * (gzip made once on first use, AnswerBytes) per year and visibility (access/policy.ts visibilityKey: the callers
 * who see the same ships share it), under the version of everything it is made of:
 * - the reports version (migrations 0012 and 0043): it moves with every statement on the ships' year sums
 *   (`ledger_years`) and every update of a ship's type, deadweight or gross tonnage;
 * - the caller's access version (migration 0010): the ships the caller sees, their names, a ship made or removed.
 * The CII rule's constants (reference lines, reduction factors, boundaries) are code: a new process has them and an
 * empty cache. Kept as the dashboards' answers are (reports/cache.ts VersionedAnswers): a computation in progress
 * shared by the callers who ask in the same version, an entry of an older version replaced, not kept beside it (one
 * answer per year and visibility: 5,000 ships are 0.9 MB).
 */
export interface FleetCiiAnswers {
  /** The version an answer is made under; read from `db`, where the request's reads go (replica or primary). */
  version(db: Kysely<Database>, caller: Caller): Promise<string | undefined>;
  /** The ETag of the answer of a version (undefined without one: a caller read without an access version). */
  etag(caller: Caller, version: string | undefined, year: number): string | undefined;
  answer(
    db: Kysely<Database>,
    caller: Caller,
    version: string | undefined,
    year: number,
  ): Promise<AnswerBytes>;
}

const bytesOf = async (db: Kysely<Database>, caller: Caller, year: number) =>
  new AnswerBytes(Buffer.from(JSON.stringify(fleetCiiSchema.parse(await fleetCii(db, caller, year)))));

export function fleetCiiAnswers(options: { cacheEntries: number }): FleetCiiAnswers {
  const cache = new VersionedAnswers<AnswerBytes>(options.cacheEntries);
  return {
    async version(db, caller) {
      if (caller.accessVersion === undefined || options.cacheEntries <= 0) return undefined;
      return `${await reportsVersion(db)}|${caller.accessVersion}`;
    },
    etag: (caller, version, year) =>
      version === undefined
        ? undefined
        : `"${createHash('sha1')
            .update(JSON.stringify(['cii/fleet', version, caller.userId, visibilityKey(caller), year]))
            .digest('base64url')}"`,
    async answer(db, caller, version, year) {
      if (version === undefined) return bytesOf(db, caller, year);
      return cache.get(`${year}|${visibilityKey(caller)}`, version, () => bytesOf(db, caller, year));
    },
  };
}
