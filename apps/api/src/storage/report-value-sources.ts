import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

/**
 * The key of a stored report value series: its value source (docs/decisions/0030-report-fields.md, 0132).
 *
 * Two report fields are the same value source when their approved calculations are the same over their whole
 * history: the same algorithm text (trimmed), the same inputs in the same order, the same span and the same validity
 * of every approved version, in order of validity. Calculations are the same for every ship, and the values of a
 * ship are computed from that ship's own measurement values, so two such fields compute the same hourly values on
 * every ship for every period. A group of such fields is stored once per ship, under the id of its first field (by
 * report and field position): its source. `report_values` and its roll-ups hold the series of sources only; every
 * field reads through `sourceOf` (report values, exports, the dashboards' shared partials). A field without an
 * approved calculation is its own source (and has no values).
 *
 * A group's source changes only when an approval changes a field's calculations (it leaves its group, joins another
 * one, or a new field is placed before a group's first field): {@link carryReportSeries} (report-values.ts) then
 * gives every new source the series its fields read before, in the approving transaction.
 */
export interface ValueSources {
  /** report field id -> the field whose stored hourly values it reads */
  sourceOf: Map<string, string>;
  /** The fields the execution engine has to compute: one per distinct approved calculation. */
  computed: string[];
  /** report field id -> its calculations' signature (what "the same calculation" compares). */
  signatureOf: Map<string, string>;
}

export async function reportFieldValueSources(db: Kysely<Database>): Promise<ValueSources> {
  const rows = await db
    .selectFrom('report_fields as f')
    .innerJoin('reports as r', 'r.id', 'f.report_id')
    .leftJoin('report_field_calculations as c', (join) =>
      join.onRef('c.report_field_id', '=', 'f.id').on('c.approved_on', 'is not', null),
    )
    .select([
      'f.id',
      'c.transform_algorithm',
      'c.input_ids',
      'c.algorithm_seconds_span',
      'c.valid_from',
      'c.valid_to',
    ])
    .orderBy('r.position')
    .orderBy('r.id')
    .orderBy('f.position')
    .orderBy('f.id')
    .orderBy('c.valid_from')
    .execute();

  const calculationsOf = new Map<string, unknown[]>();
  const order: string[] = [];
  for (const row of rows) {
    if (!calculationsOf.has(row.id)) {
      calculationsOf.set(row.id, []);
      order.push(row.id);
    }
    if (row.transform_algorithm === null) continue;
    calculationsOf
      .get(row.id)!
      .push([
        row.transform_algorithm.trim(),
        row.input_ids,
        row.algorithm_seconds_span,
        row.valid_from ? new Date(row.valid_from).getTime() : null,
        row.valid_to ? new Date(row.valid_to).getTime() : null,
      ]);
  }

  const sourceOf = new Map<string, string>();
  const signatureOf = new Map<string, string>();
  const firstBySignature = new Map<string, string>();
  const computed: string[] = [];
  for (const id of order) {
    const calculations = calculationsOf.get(id)!;
    const key = JSON.stringify(calculations);
    signatureOf.set(id, key);
    if (calculations.length === 0) {
      sourceOf.set(id, id);
      continue;
    }
    const first = firstBySignature.get(key);
    if (first) sourceOf.set(id, first);
    else {
      firstBySignature.set(key, id);
      sourceOf.set(id, id);
      computed.push(id);
    }
  }
  return { sourceOf, computed, signatureOf };
}

/**
 * Where each new source's series comes from after a change of approved calculations (`before` -> `after`): a group
 * keeps the series its fields whose calculations did not change read before (so the fields left behind when their
 * source's calculation changes keep their values); a group made only of changed fields keeps what its source read
 * before, until the recalculation that the approval asks for. Pairs [from, to] with from != to. Pure.
 */
export function seriesCarriedOver(before: ValueSources, after: ValueSources): [string, string][] {
  const members = new Map<string, string[]>();
  for (const [field, source] of after.sourceOf) {
    const list = members.get(source);
    if (list) list.push(field);
    else members.set(source, [field]);
  }
  const pairs: [string, string][] = [];
  for (const [source, fields] of members) {
    const kept = fields.find(
      (f) => before.signatureOf.has(f) && before.signatureOf.get(f) === after.signatureOf.get(f),
    );
    const from = before.sourceOf.get(kept ?? source);
    if (from !== undefined && from !== source) pairs.push([from, source]);
  }
  return pairs;
}
