import { sql, type Kysely, type Transaction } from 'kysely';
import type { RecalculationKind } from '@portal/contracts/execution';
import type { Database } from '../../db/schema';
import { notFound } from '../../errors';
import type { Caller } from '../access/caller';
import { facilityVisibleTo, isUuid } from '../access/policy';

/** Running and queued executions of the ships the caller sees, oldest request first. */
export function runningExecutions(db: Kysely<Database>, caller: Caller) {
  return db
    .selectFrom('executions as e')
    .select(['e.id', 'e.facility_id', 'e.state', 'e.started_on', 'e.requested_on'])
    .where('e.state', 'in', ['running', 'queued'])
    .where(facilityVisibleTo(db, caller, sql.ref('e.facility_id')))
    .orderBy('e.requested_on')
    .execute();
}

/** One execution, if the caller sees its ship. */
export function executionOf(db: Kysely<Database>, caller: Caller, id: string) {
  return db
    .selectFrom('executions as e')
    .select([
      'e.id',
      'e.facility_id',
      'e.kind',
      'e.origin',
      'e.uploads',
      'e.data_file_ids',
      'e.state',
      'e.period_from',
      'e.period_to',
      'e.requested_on',
      'e.started_on',
      'e.finished_on',
      'e.attempts',
      'e.counts',
      'e.error',
    ])
    .where('e.id', '=', id)
    .where(facilityVisibleTo(db, caller, sql.ref('e.facility_id')))
    .executeTakeFirst();
}

/** Per ship the caller sees, its latest finished or failed execution when that one failed, latest first. */
export function lastFailedExecutions(db: Kysely<Database>, caller: Caller) {
  return db
    .selectFrom((eb) =>
      eb
        .selectFrom('executions as e')
        .select(['e.id', 'e.facility_id', 'e.state', 'e.started_on', 'e.finished_on', 'e.error'])
        .select(
          sql<number>`row_number() over (partition by e.facility_id order by e.requested_on desc, e.id desc)`.as(
            'rank',
          ),
        )
        .where('e.state', 'in', ['done', 'failed'])
        .where(facilityVisibleTo(db, caller, sql.ref('e.facility_id')))
        .as('last'),
    )
    .selectAll()
    .where('last.rank', '=', 1)
    .where('last.state', '=', 'failed')
    .orderBy('last.finished_on', (ob) => ob.desc().nullsLast())
    .execute();
}

const tableOf = (kind: RecalculationKind) =>
  kind === 'measurement-fields' ? 'measurement_field_calculations' : 'report_field_calculations';

function pending(requested: boolean) {
  return sql<boolean>`(c.recalculation_requested_on is not null or c.recalculation_queued_on is not null) = ${requested}`;
}

/** The data files among `fileIds` that belong to the ship. */
export function facilityDataFiles(db: Kysely<Database>, facilityId: string, fileIds: string[]) {
  return db
    .selectFrom('data_files')
    .select('id')
    .where('facility_id', '=', facilityId)
    .where('id', 'in', fileIds)
    .execute();
}

/** The ship's measurement field calculations whose recalculation is (or is not) requested or queued. */
export function measurementRecalculations(db: Kysely<Database>, facilityId: string, requested: boolean) {
  return db
    .selectFrom('measurement_field_calculations as c')
    .innerJoin('measurement_fields as f', 'f.id', 'c.measurement_field_id')
    .select([
      'c.id',
      'f.name as field_name',
      'c.version',
      'c.revision',
      'c.recalculation_requested_on',
      'c.recalculation_queued_on',
    ])
    .where('c.facility_id', '=', facilityId)
    .where(pending(requested))
    .orderBy(sql`coalesce(c.recalculation_requested_on, c.recalculation_queued_on)`)
    .orderBy('f.name')
    .execute();
}

/** The report field calculations whose recalculation is (or is not) requested or queued. */
export function reportRecalculations(db: Kysely<Database>, requested: boolean) {
  return db
    .selectFrom('report_field_calculations as c')
    .innerJoin('report_fields as f', 'f.id', 'c.report_field_id')
    .innerJoin('reports as r', 'r.id', 'f.report_id')
    .select([
      'c.id',
      'f.name as field_name',
      'r.name as report_name',
      'c.version',
      'c.revision',
      'c.recalculation_requested_on',
      'c.recalculation_queued_on',
    ])
    .where(pending(requested))
    .orderBy(sql`coalesce(c.recalculation_requested_on, c.recalculation_queued_on)`)
    .orderBy('r.name')
    .orderBy('f.name')
    .execute();
}

/** The pending recalculations among `ids`; an id that is not pending is a 404. */
export async function loadPending(db: Kysely<Database>, kind: RecalculationKind, ids: string[]) {
  const unique = [...new Set(ids)];
  const rows = unique.every(isUuid)
    ? await db
        .selectFrom(tableOf(kind))
        .select(['id', 'recalculation_requested_on', 'recalculation_queued_on'])
        .where('id', 'in', unique)
        .where((eb) =>
          eb.or([
            eb('recalculation_requested_on', 'is not', null),
            eb('recalculation_queued_on', 'is not', null),
          ]),
        )
        .execute()
    : [];
  if (rows.length !== unique.length) throw notFound('Recalculation not found');
  return rows;
}

/** Requested, not queued -> no recalculation. Returns how many changed. */
export async function removeRecalculations(
  trx: Transaction<Database>,
  kind: RecalculationKind,
  ids: string[],
): Promise<number> {
  const result = await trx
    .updateTable(tableOf(kind))
    .set({ recalculation_requested_on: null })
    .where('id', 'in', ids)
    .where('recalculation_queued_on', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Queued -> requested again. Returns how many changed. */
export async function cancelRecalculations(
  trx: Transaction<Database>,
  kind: RecalculationKind,
  ids: string[],
): Promise<number> {
  const result = await trx
    .updateTable(tableOf(kind))
    .set((eb) => ({
      recalculation_queued_on: null,
      recalculation_requested_on: eb.fn.coalesce('recalculation_requested_on', sql<Date>`now()`),
    }))
    .where('id', 'in', ids)
    .where('recalculation_queued_on', 'is not', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Requested -> queued. Returns how many changed. */
export async function markRecalculationsQueued(
  trx: Transaction<Database>,
  kind: RecalculationKind,
  ids: string[],
): Promise<number> {
  const result = await trx
    .updateTable(tableOf(kind))
    .set({ recalculation_queued_on: new Date() })
    .where('id', 'in', ids)
    .where('recalculation_queued_on', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
