import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';

/**
 * Which report field's stored hourly values a field reads (docs/decisions/0030-report-fields.md).
 *
 * Fields whose approved calculations are the same (algorithm text, inputs, span and validity) compute the
 * same hourly values; they share the values of the first of them (by report and field position), its
 * "value source". A field whose calculation is changed gets a calculation of its own and so becomes its
 * own source. A field without an approved calculation is its own source (and has no values).
 */
export interface ValueSources {
  /** report field id -> the field whose stored hourly values it reads */
  sourceOf: Map<string, string>;
  /** The fields the execution engine has to compute: one per distinct approved calculation. */
  computed: string[];
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

  const signatures = new Map<string, unknown[]>();
  const order: string[] = [];
  for (const row of rows) {
    if (!signatures.has(row.id)) {
      signatures.set(row.id, []);
      order.push(row.id);
    }
    if (row.transform_algorithm === null) continue;
    signatures
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
  const firstBySignature = new Map<string, string>();
  const computed: string[] = [];
  for (const id of order) {
    const calculations = signatures.get(id)!;
    if (calculations.length === 0) {
      sourceOf.set(id, id);
      continue;
    }
    const key = JSON.stringify(calculations);
    const first = firstBySignature.get(key);
    if (first) sourceOf.set(id, first);
    else {
      firstBySignature.set(key, id);
      sourceOf.set(id, id);
      computed.push(id);
    }
  }
  return { sourceOf, computed };
}
