import type { Kysely } from 'kysely';
import type { FormulaError } from '@portal/formula';
import { CALCULATION_TEXTS } from '@portal/contracts/calculations';
import type { Database } from '../../db/schema';
import { isUuid } from '../access/policy';

export interface ResolvedInputs {
  /** The names the algorithm reads, in the order of the ids. */
  names: string[];
  /** Ids among the inputs that are measurement fields (not channels). */
  fieldIds: string[];
  errors: FormulaError[];
}

const noPlace = (message: string): FormulaError => ({ message, startLine: 0, startCharacter: 0 });

/**
 * Input ids of a calculation to the names its algorithm uses: a data source channel (of the ship, when one is
 * given) is read by its mapping name, a measurement field by the field's name. Report field calculations read
 * measurement fields only.
 */
export async function resolveInputs(
  db: Kysely<Database>,
  ids: readonly string[],
  options: { channels: boolean; facilityId?: string },
): Promise<ResolvedInputs> {
  const uuids = [...new Set(ids.filter(isUuid))];
  const fields = uuids.length
    ? await db.selectFrom('measurement_fields').select(['id', 'name']).where('id', 'in', uuids).execute()
    : [];
  let channels: { id: string; name: string }[] = [];
  if (options.channels && uuids.length) {
    let query = db.selectFrom('data_source_channels').select(['id', 'name']).where('id', 'in', uuids);
    if (options.facilityId)
      query = query.where(
        'facility_id',
        '=',
        isUuid(options.facilityId) ? options.facilityId : '00000000-0000-0000-0000-000000000000',
      );
    channels = await query.execute();
  }
  const nameOf = new Map<string, string>([...channels, ...fields].map((r) => [r.id, r.name]));
  const fieldIdSet = new Set(fields.map((f) => f.id));
  const result: ResolvedInputs = { names: [], fieldIds: [], errors: [] };
  const seenNames = new Set<string>();
  for (const id of new Set(ids)) {
    const name = nameOf.get(id);
    if (name === undefined) {
      result.errors.push(noPlace(CALCULATION_TEXTS.unknownInput(id)));
      continue;
    }
    if (seenNames.has(name)) {
      result.errors.push(noPlace(CALCULATION_TEXTS.duplicateInputName(name)));
      continue;
    }
    seenNames.add(name);
    result.names.push(name);
    if (fieldIdSet.has(id)) result.fieldIds.push(id);
  }
  return result;
}

/**
 * A cycle that the calculation of `fieldId` (reading `inputFieldIds`) would close among the ship's measurement
 * fields, as the names along it (A -> B -> A), or null. The other fields' edges are the inputs of their approved
 * calculations: those are what executions run; a draft is checked when it is validated or approved.
 */
export async function findCycle(
  db: Kysely<Database>,
  facilityId: string,
  fieldId: string,
  inputFieldIds: readonly string[],
): Promise<string[] | null> {
  if (!isUuid(facilityId) || !isUuid(fieldId)) return null;
  const rows = await db
    .selectFrom('measurement_field_calculations')
    .select(['measurement_field_id', 'input_ids'])
    .where('facility_id', '=', facilityId)
    .where('approved_on', 'is not', null)
    .where('measurement_field_id', '!=', fieldId)
    .execute();
  const edges = new Map<string, Set<string>>();
  for (const row of rows) {
    const set = edges.get(row.measurement_field_id) ?? new Set<string>();
    for (const id of row.input_ids ?? []) set.add(id);
    edges.set(row.measurement_field_id, set);
  }
  edges.set(fieldId, new Set(inputFieldIds));

  // Depth-first from the field; a path that returns to it is the cycle.
  const path: string[] = [fieldId];
  const done = new Set<string>();
  const visit = (node: string): boolean => {
    for (const next of edges.get(node) ?? []) {
      if (next === fieldId) {
        path.push(next);
        return true;
      }
      if (done.has(next) || path.includes(next)) continue;
      path.push(next);
      if (visit(next)) return true;
      path.pop();
      done.add(next);
    }
    return false;
  };
  if (!visit(fieldId)) return null;
  const names = await db
    .selectFrom('measurement_fields')
    .select(['id', 'name'])
    .where('id', 'in', [...new Set(path)])
    .execute();
  const nameOf = new Map(names.map((n) => [n.id, n.name]));
  return path.map((id) => nameOf.get(id) ?? id);
}
