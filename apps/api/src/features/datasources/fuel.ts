import type { Kysely, Selectable } from 'kysely';
import {
  fuelChannelProblems,
  type FuelChannelAttributes,
  type FuelChannelProblem,
  type FuelChannelState,
} from '@portal/contracts/fuel-channels';
import type { Database } from '../../db/schema';
import type { DataSourceChannelsTable } from '../../db/tables/ingestion';
import { badRequest, conflict } from '../../errors';

/**
 * A fuel flow channel's consumer and fuel type source (the carbon ledger's inputs, migration 0025): the rows' columns
 * as the contracts' attributes and back, and the checks of a change against the ship's other channels
 * (`fuelChannelProblems` in packages/contracts/src/fuel-channels.ts).
 */

type ChannelRow = Selectable<DataSourceChannelsTable>;

export const fuelAttributesOf = (
  row: Pick<
    ChannelRow,
    'consumer' | 'fuel_type_source' | 'fuel_type' | 'fuel_type_channel_id' | 'lng_engine'
  >,
): FuelChannelAttributes => ({
  consumer: row.consumer,
  fuelTypeSource: row.fuel_type_source,
  fuelType: row.fuel_type,
  fuelTypeChannelId: row.fuel_type_channel_id,
  lngEngine: row.lng_engine,
});

export const fuelColumnsOf = (a: FuelChannelAttributes) => ({
  consumer: a.consumer,
  fuel_type_source: a.fuelTypeSource,
  fuel_type: a.fuelType,
  fuel_type_channel_id: a.fuelTypeChannelId,
  lng_engine: a.lngEngine,
});

/** A stored channel as the rule reads it; `editable` when the change sets it. */
export const stateOf = (row: ChannelRow, editable = false): FuelChannelState => ({
  key: row.id,
  id: row.id,
  name: row.name,
  unit: row.unit,
  dataType: row.data_type,
  editable,
  ...fuelAttributesOf(row),
});

/** Every channel of a ship (all its data sources). */
export function shipChannels(db: Kysely<Database>, facilityId: string): Promise<ChannelRow[]> {
  return db.selectFrom('data_source_channels').selectAll().where('facility_id', '=', facilityId).execute();
}

/** A 400 naming each problem of one channel's body on its field. */
export function throwChannelProblems(problems: readonly FuelChannelProblem[]): void {
  if (problems.length === 0) return;
  const fields = Object.fromEntries(problems.map((p) => [p.field, p.message]));
  throw badRequest(problems.map((p) => p.message).join('; '), fields);
}

/**
 * Removing `removed` (a mapping, or every mapping of a data source) from the ship: refused (409) when another of its
 * channels reads its fuel type from one of them, naming both.
 */
export async function assertNoFuelTypeReaders(
  db: Kysely<Database>,
  facilityId: string,
  removed: readonly ChannelRow[],
): Promise<void> {
  if (removed.length === 0) return;
  const gone = new Set(removed.map((r) => r.id));
  const remaining = (await shipChannels(db, facilityId)).filter((c) => !gone.has(c.id));
  const problems = fuelChannelProblems(
    remaining.map((c) => stateOf(c)),
    removed.map((r) => ({ key: r.id, id: r.id, name: r.name })),
  );
  if (problems.length > 0) throw conflict(problems.map((p) => p.message).join('; '));
}
