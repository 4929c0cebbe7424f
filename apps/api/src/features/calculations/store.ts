import type { Kysely, Transaction } from 'kysely';
import { CALCULATION_TEXTS, type CalculationState } from '@portal/contracts/calculations';
import type { Database } from '../../db/schema';
import { conflict, notFound } from '../../errors';
import { isUuid } from '../access/policy';

/**
 * What measurement field and report field calculations share: versions, saving, approval with validity,
 * locking and deletion (docs/decisions/0020-calculation-versions.md, 0021-calculation-validity.md).
 * The two tables have the same calculation columns; a scope names the table and the owner's key columns.
 */
export type CalculationTable = 'measurement_field_calculations' | 'report_field_calculations';

export interface Scope {
  table: CalculationTable;
  /** The owner: { facility_id, measurement_field_id } or { report_field_id }. */
  owner: Record<string, string>;
}

export interface CalculationRow {
  id: string;
  version: number;
  revision: number;
  comment: string | null;
  documentation: string | null;
  input_ids: string[];
  transform_algorithm: string;
  quality_score: number;
  approved_on: Date | null;
  approved_by: string | null;
  valid_from: Date | null;
  valid_to: Date | null;
  recalculation_requested_on: Date | null;
  recalculation_queued_on: Date | null;
  created_on: Date;
  updated_on: Date;
  // measurement field calculations
  facility_id?: string;
  measurement_field_id?: string;
  required_sample_interval_seconds?: number;
  preload_interval_seconds?: number;
  output_type?: string;
  // report field calculations
  report_field_id?: string;
  algorithm_seconds_span?: number;
}

/** Columns a save may set; those that change the values an execution computes are VALUE_COLUMNS. */
export type Settable = Partial<
  Pick<
    CalculationRow,
    | 'comment'
    | 'documentation'
    | 'input_ids'
    | 'transform_algorithm'
    | 'quality_score'
    | 'required_sample_interval_seconds'
    | 'preload_interval_seconds'
    | 'output_type'
    | 'algorithm_seconds_span'
  >
>;
const VALUE_COLUMNS = [
  'transform_algorithm',
  'input_ids',
  'required_sample_interval_seconds',
  'preload_interval_seconds',
  'output_type',
  'algorithm_seconds_span',
] as const;
const SETTABLE_COLUMNS = [...VALUE_COLUMNS, 'comment', 'documentation', 'quality_score'] as const;

type AnyDb = Kysely<any>;
const anyDb = (db: Kysely<Database> | Transaction<Database>) => db as unknown as AnyDb;

export const isLocked = (row: Pick<CalculationRow, 'recalculation_queued_on'>) =>
  row.recalculation_queued_on !== null;
export const canDelete = (row: Pick<CalculationRow, 'approved_on'>) => row.approved_on === null;

export function calculationState(
  row: Pick<CalculationRow, 'approved_on' | 'recalculation_requested_on' | 'recalculation_queued_on'>,
): CalculationState {
  if (row.recalculation_queued_on) return 'recalculation-queued';
  if (row.recalculation_requested_on) return 'recalculation-requested';
  return row.approved_on ? 'approved' : 'draft';
}

function jsonColumns(values: Settable): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) continue;
    out[key] = key === 'input_ids' ? JSON.stringify(value) : value;
  }
  return out;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Newest first: version, then revision, then creation. */
export async function listCalculations(db: Kysely<Database>, scope: Scope): Promise<CalculationRow[]> {
  let query = anyDb(db).selectFrom(scope.table).selectAll();
  for (const [column, value] of Object.entries(scope.owner)) query = query.where(column, '=', value);
  return (await query
    .orderBy('version', 'desc')
    .orderBy('revision', 'desc')
    .orderBy('created_on', 'desc')
    .execute()) as CalculationRow[];
}

export async function getCalculation(
  db: Kysely<Database> | Transaction<Database>,
  scope: Scope,
  id: string,
  forUpdate = false,
): Promise<CalculationRow> {
  if (!isUuid(id)) throw notFound('Calculation not found');
  let query = anyDb(db).selectFrom(scope.table).selectAll().where('id', '=', id);
  for (const [column, value] of Object.entries(scope.owner)) query = query.where(column, '=', value);
  if (forUpdate) query = query.forUpdate();
  const row = (await query.executeTakeFirst()) as CalculationRow | undefined;
  if (!row) throw notFound('Calculation not found');
  return row;
}

async function nextVersion(trx: Transaction<Database>, scope: Scope): Promise<number> {
  let query = anyDb(trx)
    .selectFrom(scope.table)
    .select((eb: any) => eb.fn.max('version').as('max'));
  for (const [column, value] of Object.entries(scope.owner)) query = query.where(column, '=', value);
  const row = (await query.executeTakeFirst()) as { max: number | null } | undefined;
  return Number(row?.max ?? 0) + 1;
}

/** A new calculation: the next version of the owner (1 for the first), revision 0. */
export async function createCalculation(
  db: Kysely<Database>,
  scope: Scope,
  values: Settable,
): Promise<CalculationRow> {
  return db.transaction().execute(async (trx) => {
    await lockOwner(trx, scope);
    const version = await nextVersion(trx, scope);
    return (await anyDb(trx)
      .insertInto(scope.table)
      .values({ ...scope.owner, ...jsonColumns(values), version, revision: 0 })
      .returningAll()
      .executeTakeFirstOrThrow()) as CalculationRow;
  });
}

/** Serializes version numbering and validity changes of one owner (its calculations are few). */
async function lockOwner(trx: Transaction<Database>, scope: Scope): Promise<void> {
  if (scope.table === 'measurement_field_calculations') {
    await trx
      .selectFrom('measurement_fields')
      .select('id')
      .where('id', '=', scope.owner.measurement_field_id!)
      .forUpdate()
      .execute();
  } else {
    await trx
      .selectFrom('report_fields')
      .select('id')
      .where('id', '=', scope.owner.report_field_id!)
      .forUpdate()
      .execute();
  }
}

export function assertUnlocked(row: CalculationRow): void {
  if (isLocked(row)) throw conflict(CALCULATION_TEXTS.locked);
}

/**
 * Save (docs/decisions/0020-calculation-versions.md):
 * - a draft is updated in place, its revision raised by one when anything changed;
 * - an approved calculation whose values would change (algorithm, inputs, intervals, output type, span) stays as
 *   it was: the change becomes a new draft with the next version, revision 0;
 * - an approved calculation whose comment, documentation or rating changed is updated in place.
 * `recalculate` marks the saved calculation's recalculation as requested (Save); false leaves it (Save without queuing).
 */
export async function saveCalculation(
  db: Kysely<Database>,
  scope: Scope,
  id: string,
  values: Settable,
  recalculate: boolean,
): Promise<CalculationRow> {
  return db.transaction().execute(async (trx) => {
    await lockOwner(trx, scope);
    const row = await getCalculation(trx, scope, id, true);
    assertUnlocked(row);
    const changed = SETTABLE_COLUMNS.filter((c) => values[c] !== undefined && !same(values[c], row[c]));
    const now = new Date();
    const requested = recalculate ? { recalculation_requested_on: now } : {};
    if (row.approved_on && changed.some((c) => (VALUE_COLUMNS as readonly string[]).includes(c))) {
      const carried: Record<string, unknown> = {};
      for (const c of SETTABLE_COLUMNS) carried[c] = values[c] !== undefined ? values[c] : row[c];
      const version = await nextVersion(trx, scope);
      return (await anyDb(trx)
        .insertInto(scope.table)
        .values({ ...scope.owner, ...jsonColumns(carried as Settable), version, revision: 0, ...requested })
        .returningAll()
        .executeTakeFirstOrThrow()) as CalculationRow;
    }
    const revision = !row.approved_on && changed.length > 0 ? row.revision + 1 : row.revision;
    return (await anyDb(trx)
      .updateTable(scope.table)
      .set({ ...jsonColumns(values), revision, updated_on: now, ...requested })
      .where('id', '=', row.id)
      .returningAll()
      .executeTakeFirstOrThrow()) as CalculationRow;
  });
}

/**
 * Approve for [validFrom, validTo] (docs/decisions/0021-calculation-validity.md): an open-ended approved
 * calculation of the same owner that starts before validFrom ends at validFrom; an open-ended new one ends where the
 * next approved one (starting after validFrom) begins. The values in its period are to be recalculated.
 */
export async function approveCalculation(
  db: Kysely<Database>,
  scope: Scope,
  id: string,
  validity: { validFrom: Date; validTo: Date | null },
  approvedBy: string,
  check: (row: CalculationRow) => Promise<void>,
  /** Runs the approval's writes in a transaction: the route's audited change (features/audit). */
  inTransaction: (
    change: (trx: Transaction<Database>) => Promise<CalculationRow>,
  ) => Promise<CalculationRow> = (change) => db.transaction().execute(change),
): Promise<CalculationRow> {
  const assertApprovable = (row: CalculationRow) => {
    assertUnlocked(row);
    if (row.approved_on) throw conflict(CALCULATION_TEXTS.alreadyApproved);
  };
  // The check reads other tables, so it runs before the transaction (an embedded database has one connection);
  // the transaction then makes sure the calculation was not changed meanwhile.
  const checked = await getCalculation(db, scope, id);
  assertApprovable(checked);
  await check(checked);
  return inTransaction(async (trx) => {
    await lockOwner(trx, scope);
    const row = await getCalculation(trx, scope, id, true);
    assertApprovable(row);
    if (
      row.revision !== checked.revision ||
      row.transform_algorithm !== checked.transform_algorithm ||
      !same(row.input_ids, checked.input_ids)
    ) {
      throw conflict('The calculation was changed while it was being approved; validate it again');
    }
    const now = new Date();
    const owner = (q: any) => {
      for (const [column, value] of Object.entries(scope.owner)) q = q.where(column, '=', value);
      return q;
    };
    await owner(anyDb(trx).updateTable(scope.table).set({ valid_to: validity.validFrom, updated_on: now }))
      .where('approved_on', 'is not', null)
      .where('valid_to', 'is', null)
      .where('valid_from', '<', validity.validFrom)
      .where('id', '!=', row.id)
      .execute();
    let validTo = validity.validTo;
    if (!validTo) {
      const next = (await owner(anyDb(trx).selectFrom(scope.table).select('valid_from'))
        .where('approved_on', 'is not', null)
        .where('valid_from', '>', validity.validFrom)
        .where('id', '!=', row.id)
        .orderBy('valid_from', 'asc')
        .limit(1)
        .executeTakeFirst()) as { valid_from: Date } | undefined;
      validTo = next?.valid_from ?? null;
    }
    return (await anyDb(trx)
      .updateTable(scope.table)
      .set({
        approved_on: now,
        approved_by: approvedBy,
        valid_from: validity.validFrom,
        valid_to: validTo,
        recalculation_requested_on: now,
        updated_on: now,
      })
      .where('id', '=', row.id)
      .returningAll()
      .executeTakeFirstOrThrow()) as CalculationRow;
  });
}

export async function deleteCalculation(
  db: Kysely<Database>,
  scope: Scope,
  id: string,
): Promise<CalculationRow> {
  return db.transaction().execute(async (trx) => {
    const row = await getCalculation(trx, scope, id, true);
    assertUnlocked(row);
    if (!canDelete(row)) throw conflict(CALCULATION_TEXTS.notDeletable);
    await anyDb(trx).deleteFrom(scope.table).where('id', '=', row.id).execute();
    return row;
  });
}

/**
 * The approved calculation in force at `at`: its validity covers the instant (both ends included); of several,
 * the one starting last wins, then the one approved last.
 */
export function inForce<T extends Pick<CalculationRow, 'approved_on' | 'valid_from' | 'valid_to'>>(
  rows: readonly T[],
  at: Date,
): T | undefined {
  const t = at.getTime();
  return rows
    .filter(
      (r) =>
        r.approved_on &&
        r.valid_from &&
        new Date(r.valid_from).getTime() <= t &&
        (!r.valid_to || new Date(r.valid_to).getTime() >= t),
    )
    .sort(
      (a, b) =>
        new Date(b.valid_from!).getTime() - new Date(a.valid_from!).getTime() ||
        new Date(b.approved_on!).getTime() - new Date(a.approved_on!).getTime(),
    )[0];
}
