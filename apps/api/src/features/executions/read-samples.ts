import type { Kysely } from 'kysely';
import { formatDateTime } from '@portal/contracts/rules';
import type { Database } from '../../db/schema';
import { lowerBound, readRawSamples } from '../../storage';
import { ExecutionError, calculationWindowSeconds } from './calculations';
import { nameOf, type Channel, type ExecutionPlan } from './plan';

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

/** The mapped channels the recomputed measurement calculations read, each once (not the position, unless read). */
export function inputChannels(plan: ExecutionPlan): Channel[] {
  const channels = new Map<string, Channel>();
  for (const fieldId of plan.order)
    for (const calc of plan.measurementCalcsByField.get(fieldId) ?? [])
      for (const id of calc.inputIds) {
        const channel = plan.channelById.get(id);
        if (channel) channels.set(channel.id, channel);
      }
  return [...channels.values()];
}

/** How many values (not NaN, i.e. not missing) the channels hold in the samples read. */
export function countInputValues(
  channels: readonly Channel[],
  rawBySource: PeriodSamples['rawBySource'],
): number {
  let count = 0;
  for (const channel of channels) {
    const column = rawBySource.get(channel.data_source_id)?.columns[channel.source];
    if (!column) continue;
    for (let i = 0; i < column.length; i++) if (column[i] === column[i]) count++;
  }
  return count;
}

const MAX_NAMES = 6;

/**
 * "All inputs missing" (docs/decisions/0040-execution.md): the period has targets (timestamps of the primary data
 * source) and the recomputed calculations read mapped channels, but not one of those channels has a value in what
 * was read (typically a file whose columns match no mapped channel). Then the run would store nothing but nulls
 * and look done; it fails with this reason instead. Null when some input has a value (a few missing channels are
 * data health's business, not a failure), when nothing is computed at a timestamp, or when the calculations read
 * no channel at all.
 */
export function missingInputsReason(
  plan: ExecutionPlan,
  channels: readonly Channel[],
  samples: Pick<PeriodSamples, 'primaryTimestamps' | 'inputValues'>,
): string | null {
  if (samples.primaryTimestamps.length === 0 || channels.length === 0 || samples.inputValues > 0) return null;
  const names = [...new Set(channels.map((c) => c.name))].sort();
  const listed =
    names.length > MAX_NAMES
      ? `${names.slice(0, MAX_NAMES).join(', ')}, … (${names.length} in all)`
      : names.join(', ');
  const sources = [...new Set(channels.map((c) => c.data_source_id))].map(
    (id) => plan.dataSourceNames.get(id) ?? id,
  );
  const { from, to } = plan.request;
  return (
    `None of the mapped channels (${listed}) has a value between ${formatDateTime(from)} and ` +
    `${formatDateTime(to)} (UTC); check the channel mappings of ${sources.length > 1 ? 'data sources' : 'data source'} ` +
    `${sources.join(', ')}`
  );
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
