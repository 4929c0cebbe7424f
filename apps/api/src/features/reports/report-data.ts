import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { reportDataSchema, type ReportData } from '@portal/contracts/reports';
import type { UptimeMode } from '@portal/contracts/rules';
import type { Database } from '../../db/schema';
import { badRequest, notFound } from '../../errors';
import { readArchivedMonths, type ReportPartial } from '../../storage';
import { monthOf } from '../../db/partitions';
import type { Caller } from '../access/caller';
import { AnswerCache, reportsVersion } from './cache';
import { findReport, reportFields, visibleFleet } from './queries';
import { reportFieldValueSources } from './sources';
import { reportData, sharedPartials } from './values';

const MAX_HOURLY_DAYS = 400;

/** What a report data request asks for (query string or body alike). */
export interface ReportDataInput {
  from: string;
  to: string;
  facilityId?: string;
  facilityIds?: string[];
  duration?: UptimeMode;
}

/**
 * The dashboards' report answers (GET/POST /api/reports/data and /api/reports/{id}/data), assembled once and kept:
 * the answers as sent (JSON bytes) under the reports version (cache.ts), the partial sums the reports of a
 * dashboard share (values.ts sharedPartials), the reports' definitions and the ships each caller sees (under its
 * access version). One per process (the routes make it); REPORT_DATA_CACHE_ENTRIES=0 turns the answer cache off.
 */
export interface ReportAnswers {
  /**
   * The version of everything the answers depend on, read from the database on every call (cache.ts). `db` is where
   * the request's reads go (the read replica or the primary, storage/read-routing.ts): the version and the answer
   * come from the same one, so an answer is cached under the version of the data it was made of.
   */
  version(db: Kysely<Database>): Promise<string>;
  /**
   * The ETag of an answer, known before any of it is computed: it names the version of everything report answers
   * depend on (values, calculations, fields, texts), the caller's access version (role, organization, the ships it
   * sees: any change moves it) and the request. So a browser that holds the answer gets its 304 after two cached
   * version reads and a hash, in any process. Undefined for a caller without an access version (the answer then
   * carries no ETag).
   */
  etag(caller: Caller, version: string, id: string | string[], input: ReportDataInput): string | undefined;
  /** One report's answer as JSON bytes; 404 for a report or ship the caller cannot see, 400 for a bad period. */
  answer(
    db: Kysely<Database>,
    caller: Caller,
    version: string,
    id: string,
    input: ReportDataInput,
  ): Promise<Buffer>;
  /**
   * Several reports with the same parameters as one answer, `{"reports":{"<id>":<data>,…}}`, built from the answers
   * each report would get alone (and their cache). Any report or ship that is not found makes the whole request not
   * found, with the single report's text.
   */
  answers(
    db: Kysely<Database>,
    caller: Caller,
    version: string,
    ids: string[],
    input: ReportDataInput,
  ): Promise<Buffer>;
}

export function reportAnswers(options: { cacheEntries: number }): ReportAnswers {
  const { cacheEntries } = options;
  /** False with REPORT_DATA_CACHE_ENTRIES=0: every answer is computed afresh (the bench's uncached path). */
  const cacheEnabled = cacheEntries > 0;
  const answerCache = new AnswerCache<Buffer>(cacheEntries);
  const partials = new AnswerCache<Promise<Map<string, ReportPartial>>>(200);

  type Definitions = {
    report: Awaited<ReturnType<typeof findReport>>;
    fields: Awaited<ReturnType<typeof reportFields>>;
    sourceOf: Map<string, string>;
  };
  const definitions = new AnswerCache<Promise<Definitions>>(100);
  const definitionsOf = (db: Kysely<Database>, version: string, id: string) => {
    const key = `${version}|${id}`;
    let value = definitions.get(key);
    if (!value) {
      value = Promise.all([findReport(db, id), reportFields(db, id), reportFieldValueSources(db)]).then(
        ([report, fields, sources]) => ({ report, fields, sourceOf: sources.sourceOf }),
      );
      value.catch(() => definitions.clear());
      definitions.set(key, value);
    }
    return value;
  };

  // The archived months, under the reports version (an archive or a restore moves it: storage/partitions.ts).
  const archivedMonths = new AnswerCache<Promise<string[]>>(8);
  const archivedOf = (db: Kysely<Database>, version: string) => {
    let value = archivedMonths.get(version);
    if (!value) {
      value = readArchivedMonths(db).then((rows) => rows.map((r) => r.month));
      value.catch(() => archivedMonths.clear());
      archivedMonths.set(version, value);
    }
    return value;
  };

  // The ships a caller sees, per access version (features/auth/verify.ts): any change of access makes a new key.
  const fleets = new AnswerCache<Promise<Awaited<ReturnType<typeof visibleFleet>>>>(cacheEntries);
  const visibleFleetOf = (db: Kysely<Database>, caller: Caller, ids: string[] | undefined) => {
    if (!caller.accessVersion) return visibleFleet(db, caller, ids);
    const key = JSON.stringify([
      caller.accessVersion,
      caller.userId,
      caller.role,
      caller.organizationId,
      ids ?? null,
    ]);
    let value = fleets.get(key);
    if (!value) {
      value = visibleFleet(db, caller, ids);
      value.catch(() => fleets.clear());
      fleets.set(key, value);
    }
    return value;
  };

  const etag: ReportAnswers['etag'] = (caller, version, id, input) =>
    caller.accessVersion === undefined
      ? undefined
      : `"${createHash('sha1')
          .update(
            JSON.stringify([
              version,
              caller.accessVersion,
              caller.userId,
              id,
              input.facilityId ?? null,
              input.facilityIds ?? null,
              input.from,
              input.to,
              input.duration ?? null,
            ]),
          )
          .digest('base64url')}"`;

  type PartialsCache = AnswerCache<Promise<Map<string, ReportPartial>>>;
  /** One report's answer; `shared` holds the partial sums of the reports asked in the same call (no answer cache). */
  const answerOf = async (
    db: Kysely<Database>,
    caller: Caller,
    version: string,
    id: string,
    input: ReportDataInput,
    shared?: PartialsCache,
  ): Promise<Buffer> => {
    const { report, fields, sourceOf } = await definitionsOf(db, version, id);
    if (!report) throw notFound('Report not found');
    const from = new Date(input.from);
    const to = new Date(input.to);
    if (from.getTime() > to.getTime())
      throw badRequest('From must be before to', { to: 'From must be before to' });
    if (input.duration === 'hourly' && to.getTime() - from.getTime() > MAX_HOURLY_DAYS * 86_400_000) {
      throw badRequest(`Hourly values for at most ${MAX_HOURLY_DAYS} days`, {
        duration: 'Use daily for this period',
      });
    }
    const facilityId = input.facilityId ?? null;
    if (!facilityId && report.target === 'Facility')
      throw badRequest('facilityId is required for a ship report', { facilityId: 'Required' });
    // A fleet report asked for one ship covers that ship; otherwise the posted ships, or all the caller sees.
    const fleetIds =
      report.target === 'FacilityGroup' && facilityId && !input.facilityIds
        ? [facilityId]
        : input.facilityIds;
    // One query for the fleet and the ship of a ship report: the visible ships among both.
    const visible = await visibleFleetOf(
      db,
      caller,
      fleetIds && facilityId ? [...fleetIds, facilityId] : fleetIds,
    );
    if (facilityId && !visible.some((f) => f.id === facilityId)) throw notFound('Ship not found');
    const fleet = visible.filter((f) => !fleetIds || fleetIds.includes(f.id)).map((f) => f.id);
    // Shared by every caller who sees the same ships: the key holds them, so an answer never goes beyond them.
    const key = createHash('sha1')
      .update(
        JSON.stringify([
          version,
          id,
          facilityId,
          fleet,
          from.getTime(),
          to.getTime(),
          input.duration ?? null,
        ]),
      )
      .digest('base64url');
    const cached = answerCache.get(key);
    if (cached) return cached;
    const data: ReportData = await reportData(db, {
      report: { id: report.id, target: report.target, information: report.information },
      fields,
      sourceOf,
      facilityId,
      fleet,
      from,
      to,
      duration: input.duration,
      // Without the cache, the reports of one call still share one aggregation (every first call after new data is
      // uncached: issue 34); a report asked alone aggregates only its own fields.
      partials: cacheEnabled
        ? sharedPartials(db, version, [...new Set(sourceOf.values())], partials)
        : shared
          ? sharedPartials(db, version, [...new Set(sourceOf.values())], shared)
          : undefined,
    });
    // The period's archived months, said with the answer rather than shown as lower figures (decision 0134).
    const archived = (await archivedOf(db, version)).filter(
      (month) => month >= monthOf(from) && month <= monthOf(to),
    );
    if (archived.length > 0) data.archivedMonths = archived;
    const body = Buffer.from(JSON.stringify(reportDataSchema.parse(data)));
    answerCache.set(key, body);
    return body;
  };

  const answer: ReportAnswers['answer'] = (db, caller, version, id, input) =>
    answerOf(db, caller, version, id, input);

  const answers: ReportAnswers['answers'] = async (db, caller, version, ids, input) => {
    const shared: PartialsCache | undefined = cacheEnabled ? undefined : new AnswerCache(8);
    const bodies = await Promise.all(ids.map((id) => answerOf(db, caller, version, id, input, shared)));
    const parts: Buffer[] = [Buffer.from('{"reports":{')];
    ids.forEach((id, i) => {
      parts.push(Buffer.from(`${i === 0 ? '' : ','}${JSON.stringify(id)}:`), bodies[i]!);
    });
    parts.push(Buffer.from('}}'));
    return Buffer.concat(parts);
  };

  return { version: (db) => reportsVersion(db), etag, answer, answers };
}
