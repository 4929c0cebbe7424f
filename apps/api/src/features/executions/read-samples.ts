import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { lowerBound, readRawSamples } from '../../storage';
import { ExecutionError, calculationWindowSeconds } from './calculations';
import { nameOf, type Channel, type ExecutionPlan } from './plan';
import { countInputValues, inputChannels, missingInputsReason } from './sample-inputs';

/** Step 2's result: the raw samples the calculations read, per data source, and the targets' source. */
export interface PeriodSamples {
  /** The primary data source's timestamps inside [from, to). */
  primaryTimestamps: Float64Array<ArrayBufferLike>;
  /**
   * The primary data source's timestamps in [from - longest AVERAGE_OVER window, from): the rows before the period
   * that a rolling window at its start averages (empty without a window).
   */
  lookbackTimestamps?: Float64Array<ArrayBufferLike>;
  /** Per data source: its timestamps from `from - max preload - longest window` and the raw columns read. */
  rawBySource: Map<string, { timestamps: Float64Array; columns: Record<string, Float64Array> }>;
  /** The position channels for ISECAZONE (primary data source first). */
  latitude: Channel | undefined;
  longitude: Channel | undefined;
  /** How many values (not missing) the channels that the calculations read hold in what was read. */
  inputValues: number;
}

/**
 * Step "read samples": the channels the recomputed measurement calculations read, plus the position for ISECAZONE,
 * from `from` minus the largest preload interval. Nothing is read when no measurement field is recomputed.
 */
export async function readSamples(db: Kysely<Database>, plan: ExecutionPlan): Promise<PeriodSamples> {
  const { facilityId, from, to } = plan.request;
  const { channels, primaryId } = plan;
  const computedCalcs = plan.order.flatMap((id) => plan.measurementCalcsByField.get(id) ?? []);
  const maxPreload = Math.max(0, ...computedCalcs.map((c) => c.preload));
  const maxWindow = Math.max(
    0,
    ...computedCalcs.map((c) =>
      calculationWindowSeconds(
        c.algorithm,
        c.inputIds.map((id) => nameOf(plan, id)),
      ),
    ),
  );
  const neededChannels = new Map<string, Set<string>>(); // data source -> raw column names
  const need = (dataSourceId: string, source: string) => {
    const set = neededChannels.get(dataSourceId) ?? new Set<string>();
    set.add(source);
    neededChannels.set(dataSourceId, set);
  };
  const inputs = inputChannels(plan);
  for (const channel of inputs) need(channel.data_source_id, channel.source);
  const positionChannel = (name: string) =>
    channels
      .filter((c) => c.name.toLowerCase() === name.toLowerCase())
      .sort((a, b) => Number(b.data_source_id === primaryId) - Number(a.data_source_id === primaryId))[0];
  const latitude = positionChannel('LATITUDE');
  const longitude = positionChannel('LONGITUDE');
  if (latitude) need(latitude.data_source_id, latitude.source);
  if (longitude) need(longitude.data_source_id, longitude.source);

  let primaryTimestamps: Float64Array<ArrayBufferLike> = new Float64Array(0);
  let lookbackTimestamps: Float64Array<ArrayBufferLike> = new Float64Array(0);
  const rawBySource: PeriodSamples['rawBySource'] = new Map();
  if (plan.order.length > 0) {
    if (!primaryId)
      throw new ExecutionError(
        'The ship has no primary data source: its timestamps decide when the measurement fields are calculated',
      );
    const sourceIds = new Set([primaryId, ...neededChannels.keys()]);
    for (const dataSourceId of sourceIds) {
      const samples = await readRawSamples(db, facilityId, {
        from: new Date(from - (maxPreload + maxWindow) * 1000),
        to: new Date(to - 1),
        channels: [...(neededChannels.get(dataSourceId) ?? [])],
        dataSourceId,
      });
      const s = samples.find((x) => x.dataSourceId === dataSourceId);
      if (s) rawBySource.set(dataSourceId, s);
    }
    const p = rawBySource.get(primaryId);
    if (p) {
      primaryTimestamps = p.timestamps.subarray(lowerBound(p.timestamps, from), lowerBound(p.timestamps, to));
      lookbackTimestamps = p.timestamps.subarray(
        lowerBound(p.timestamps, from - maxWindow * 1000),
        lowerBound(p.timestamps, from),
      );
    }
  }
  const inputValues = countInputValues(inputs, rawBySource);
  const reason = missingInputsReason(plan, inputs, { primaryTimestamps, inputValues });
  if (reason) throw new ExecutionError(reason);
  return { primaryTimestamps, lookbackTimestamps, rawBySource, latitude, longitude, inputValues };
}
