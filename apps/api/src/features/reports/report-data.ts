import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { reportDataSchema, type ReportData } from '@portal/contracts/reports';
import type { UptimeMode } from '@portal/contracts/rules';
import type { Database } from '../../db/schema';
import { badRequest, notFound } from '../../errors';
import { readArchivedMonths, readShipValuesVersions } from '../../storage';
import { monthOf } from '../../db/partitions';
import type { Caller } from '../access/caller';
import { AnswerCache, reportsVersion, VersionedAnswers } from './cache';
import { findReport, reportFields, visibleFleet } from './queries';
import { reportFieldValueSources } from './sources';
import { reportData, sharedPartials, type ShipPartials } from './values';

const gzipAsync = promisify(gzip);
const MAX_HOURLY_DAYS = 400;
/** Ship-period entries of the partial sums' cache (values.ts sharedPartials). */
const SHIP_PARTIALS_ENTRIES = 50_000;

/** What a report data request asks for (query string or body alike). */
export interface ReportDataInput {
  from: string;
  to: string;
  facilityId?: string;
  facilityIds?: string[];
  duration?: UptimeMode;
}

/** Answers from this size on go compressed to a client that accepts gzip (a small one is not worth it). */
export const GZIP_FROM_BYTES = 1024;

/**
 * Whether an Accept-Encoding header accepts gzip: named (or `*`) with a quality above zero (RFC 9110 12.5.3), e.g.
 * `gzip, deflate, br` yes, `gzip;q=0` or none no.
 */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  let star: boolean | undefined;
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const accepted = q === undefined || Number(q.slice(2)) > 0;
    if (name === 'gzip' || name === 'x-gzip') return accepted;
    if (name === '*') star = accepted;
  }
  return star ?? false;
}

/**
 * An answer as sent: its JSON bytes and, made once on first use and kept with them, the same compressed with gzip
 * (a browser always accepts it: 840 kB of a 1,000-ship fleet dashboard become a tenth, compressed once per answer
 * instead of per request).
 */
export class AnswerBytes {
  private compressed: Promise<Buffer> | undefined;
  constructor(readonly json: Buffer) {}
  gzip(): Promise<Buffer> {
    this.compressed ??= gzipAsync(this.json, { level: 6 });
    return this.compressed;
  }
}

/**
 * Sends a kept answer (the dashboards' report data, reports/routes.ts; the fleet CII card, carbon/routes.ts): 304 when
 * the browser holds this version's answer (its ETag is checked before anything of the answer is made), otherwise the
 * answer's bytes, gzip-compressed once for a client that accepts it. `private, no-cache`: only the browser keeps it,
 * and asks again (with If-None-Match) on every use.
 */
export async function sendAnswer(
  request: FastifyRequest,
  reply: FastifyReply,
  etag: string | undefined,
  answer: () => Promise<AnswerBytes>,
): Promise<FastifyReply> {
  const headers = { 'cache-control': 'private, no-cache', ...(etag ? { etag } : {}) };
  if (etag && request.headers['if-none-match'] === etag) return reply.code(304).headers(headers).send();
  const bytes = await answer();
  reply.headers({ ...headers, vary: 'accept-encoding' }).type('application/json; charset=utf-8');
  if (bytes.json.length >= GZIP_FROM_BYTES && acceptsGzip(request.headers['accept-encoding']))
    return reply.header('content-encoding', 'gzip').send(await bytes.gzip());
  return reply.send(bytes.json);
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
  ): Promise<AnswerBytes>;
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
  ): Promise<AnswerBytes>;
}

export function reportAnswers(options: { cacheEntries: number }): ReportAnswers {
  const { cacheEntries } = options;
  /** False with REPORT_DATA_CACHE_ENTRIES=0: every answer is computed afresh (the bench's uncached path). */
  const cacheEnabled = cacheEntries > 0;
  // One answer per question, of the newest version seen (cache.ts VersionedAnswers): older ones are dropped, not kept
  // beside it.
  const answerCache = new VersionedAnswers<AnswerBytes>(cacheEntries);
  // Several reports asked as one, under the questions of their answers: the joined bytes are made once, not per
  // request (at 1,000 ships a fleet dashboard's answer is 840 kB; copying it per request was a large part of a cached
  // call).
  const joinedCache = new VersionedAnswers<AnswerBytes>(cacheEntries);
  // Each ship's partial sums per period under its values version (values.ts sharedPartials): a few periods of a
  // 5,000-ship fleet, about 2 kB each.
  const partials = new AnswerCache<ShipPartials>(SHIP_PARTIALS_ENTRIES);
  // The ships' values versions, read once per reports version and fleet: the reports of a dashboard and the users
  // asking in the same version share the read. Read after the reports version, they are at least as new as it.
  const shipVersions = new AnswerCache<Promise<Map<string, string>>>(64);
  const shipVersionsOf = (db: Kysely<Database>, version: string, ships: string[]) => {
    const key = `${version}|${hashOf(ships)}`;
    let value = shipVersions.get(key);
    if (!value) {
      value = readShipValuesVersions(db, ships);
      value.catch(() => shipVersions.delete(key));
      shipVersions.set(key, value);
    }
    return value;
  };

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

  // The ids of a caller's visible ships, as a set and hashed, once per list (the list is cached under the access
  // version): a 5,000-ship fleet's ids were stringified and hashed for every report of every request.
  const hashOf = (ids: string[]) => createHash('sha1').update(ids.join(',')).digest('base64url');
  const seenShips = new WeakMap<object, { ids: string[]; has: Set<string>; hash: string }>();
  const shipsOf = (visible: Awaited<ReturnType<typeof visibleFleet>>) => {
    let seen = seenShips.get(visible);
    if (!seen) {
      const ids = visible.map((f) => f.id);
      seen = { ids, has: new Set(ids), hash: hashOf(ids) };
      seenShips.set(visible, seen);
    }
    return seen;
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

  type PartialsCache = AnswerCache<ShipPartials>;
  /** One report's answer; `shared` holds the partial sums of the reports asked in the same call (no answer cache). */
  const answerOf = async (
    db: Kysely<Database>,
    caller: Caller,
    version: string,
    id: string,
    input: ReportDataInput,
    shared?: PartialsCache,
  ): Promise<{ key: string; bytes: AnswerBytes }> => {
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
    const seen = shipsOf(visible);
    if (facilityId && !seen.has.has(facilityId)) throw notFound('Ship not found');
    const fleet = fleetIds ? seen.ids.filter((f) => fleetIds.includes(f)) : seen.ids;
    // Shared by every caller who sees the same ships: the key holds them (their hash), so an answer never goes
    // beyond them. The version is the entry's, not the key's: a new version's answer replaces the old one.
    const key = createHash('sha1')
      .update(
        JSON.stringify([
          id,
          facilityId,
          fleetIds ? hashOf(fleet) : seen.hash,
          from.getTime(),
          to.getTime(),
          input.duration ?? null,
        ]),
      )
      .digest('base64url');
    // An answer being computed is shared too: the users who ask in the same version wait for one computation
    // (with data arriving, every version is new, and each of 50 users computing it alone piled up: decision 0136).
    const bytes = await answerCache.get(key, version, async () => {
      const data: ReportData = await reportData(db, {
        report: { id: report.id, target: report.target, information: report.information },
        fields,
        sourceOf,
        facilityId,
        fleet,
        from,
        to,
        duration: input.duration,
        // Without the cache, the reports of one call still share one aggregation (every first call after new data
        // is uncached: issue 34); a report asked alone aggregates only its own fields.
        partials: cacheEnabled
          ? sharedPartials(db, [...new Set(sourceOf.values())], partials, (ships) =>
              shipVersionsOf(db, version, ships),
            )
          : shared
            ? sharedPartials(db, [...new Set(sourceOf.values())], shared)
            : undefined,
      });
      // The period's archived months, said with the answer rather than shown as lower figures (decision 0134).
      const archived = (await archivedOf(db, version)).filter(
        (month) => month >= monthOf(from) && month <= monthOf(to),
      );
      if (archived.length > 0) data.archivedMonths = archived;
      return new AnswerBytes(Buffer.from(JSON.stringify(reportDataSchema.parse(data))));
    });
    return { key, bytes };
  };

  const answer: ReportAnswers['answer'] = (db, caller, version, id, input) =>
    answerOf(db, caller, version, id, input).then((a) => a.bytes);

  const answers: ReportAnswers['answers'] = async (db, caller, version, ids, input) => {
    // Without the cache, the reports of one call still share one read of every ship's sums.
    const shared: PartialsCache | undefined = cacheEnabled
      ? undefined
      : new AnswerCache(Number.MAX_SAFE_INTEGER);
    const answered = await Promise.all(ids.map((id) => answerOf(db, caller, version, id, input, shared)));
    const key = answered.map((a, i) => `${ids[i]}:${a.key}`).join('|');
    return joinedCache.get(key, version, async () => {
      const parts: Buffer[] = [Buffer.from('{"reports":{')];
      ids.forEach((id, i) => {
        parts.push(Buffer.from(`${i === 0 ? '' : ','}${JSON.stringify(id)}:`), answered[i]!.bytes.json);
      });
      parts.push(Buffer.from('}}'));
      return new AnswerBytes(Buffer.concat(parts));
    });
  };

  return { version: (db) => reportsVersion(db), etag, answer, answers };
}
