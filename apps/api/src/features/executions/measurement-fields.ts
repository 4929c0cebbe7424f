import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { noDischargeZoneColumn } from '@portal/contracts/discharge-zones';
import { ecaZoneColumn } from '@portal/contracts/eca';
import { concatSeries, lowerBound, type FieldSeries } from '../../storage';
import { ExecutionError, compileCalculation, runCalculation } from './calculations';
import { nameOf, type Channel, type ExecutionPlan, type MeasurementCalc } from './plan';
import type { PeriodSamples } from './read-samples';
import { sampleAndHold, thinToInterval, validitySegments, type Validity } from './series';

/** A measurement field's series in the period: freshly computed, or else as stored. */
export type FieldSeriesOf = (fieldId: string) => Promise<FieldSeries>;

/**
 * The series of measurement fields as the later steps read them: the recomputed ones from `computed`, the others
 * from storage (`readStored`, each read once).
 */
export function fieldSeriesOf(
  computed: ReadonlyMap<string, FieldSeries>,
  readStored: (fieldId: string) => Promise<FieldSeries>,
): FieldSeriesOf {
  const storedCache = new Map<string, Promise<FieldSeries>>();
  return async (fieldId) => {
    const fresh = computed.get(fieldId);
    if (fresh) return fresh;
    let stored = storedCache.get(fieldId);
    if (!stored) storedCache.set(fieldId, (stored = readStored(fieldId)));
    return stored;
  };
}

/** Stored values of a measurement field in [from, to) (the rows before a period that a rolling window reads). */
export type ReadStoredRange = (fieldId: string, from: number, to: number) => Promise<FieldSeries>;

const noHistory: ReadStoredRange = () =>
  Promise.resolve({ timestamps: new Float64Array(0), values: new Float64Array(0) });

/**
 * Step "measurement fields": the recomputed fields in dependency order, each on the primary data source's
 * timestamps thinned to its calculation's interval, with the calculation valid at each time. Inputs: raw channels
 * sample-and-held within the preload interval, other fields at their latest calculated timestamp (`seriesOf` for
 * fields not recomputed), ISECAZONE and ISNODISCHARGEZONE from the position. A calculation with an AVERAGE_OVER
 * window also runs over the targets of the window before its segment (raw channels read that far back, fields from
 * their stored values before the period: `readHistory`), whose outputs are dropped, so the value at the period's
 * first minutes averages the minutes before it as a run over the whole time would.
 */
export async function computeMeasurementFields(
  plan: ExecutionPlan,
  samples: PeriodSamples,
  readStored: (fieldId: string) => Promise<FieldSeries>,
  readHistory: ReadStoredRange = noHistory,
): Promise<Map<string, FieldSeries>> {
  const { from, to, budgetMs } = plan.request;
  const { channelById, fieldName, constants } = plan;
  const { rawBySource, primaryTimestamps, latitude, longitude } = samples;
  const measurement = new Map<string, FieldSeries>();
  const seriesOf = fieldSeriesOf(measurement, readStored);
  const name = (id: string) => nameOf(plan, id);

  type ZoneKind = 'eca' | 'noDischarge';
  const zoneColumns = new Map<string, Map<Float64Array, Uint8Array>>();
  const zoneFor = (kind: ZoneKind, targets: Float64Array, preload: number): Uint8Array => {
    let byTargets = zoneColumns.get(kind);
    if (!byTargets) zoneColumns.set(kind, (byTargets = new Map()));
    const cached = byTargets.get(targets);
    if (cached) return cached;
    const held = (ch: Channel | undefined) => {
      const raw = ch ? rawBySource.get(ch.data_source_id) : undefined;
      const column = raw && ch ? raw.columns[ch.source] : undefined;
      return raw && column
        ? sampleAndHold(raw.timestamps, column, targets, preload)
        : new Float64Array(targets.length).fill(NaN);
    };
    const lat = held(latitude);
    const lon = held(longitude);
    const zone = (kind === 'eca' ? ecaZoneColumn : noDischargeZoneColumn)(lat, lon, targets);
    // No position: unknown (null in the language), not "outside".
    for (let i = 0; i < zone.length; i++) if (Number.isNaN(lat[i]!) || Number.isNaN(lon[i]!)) zone[i] = 255;
    byTargets.set(targets, zone);
    return zone;
  };
  const lookbackByInterval = new Map<number, Float64Array>();
  /** The targets before the period (within the longest window read) followed by the period's. */
  const axisWithLookback = (interval: number) => {
    let axis = lookbackByInterval.get(interval);
    if (!axis) {
      const before = thinToInterval(samples.lookbackTimestamps ?? new Float64Array(0), interval);
      const inside = targetsAt(interval);
      axis = new Float64Array(before.length + inside.length);
      axis.set(before, 0);
      axis.set(inside, before.length);
      lookbackByInterval.set(interval, axis);
    }
    return axis;
  };
  const targetsByInterval = new Map<number, Float64Array>();
  const targetsAt = (interval: number) => {
    let t = targetsByInterval.get(interval);
    if (!t) targetsByInterval.set(interval, (t = thinToInterval(primaryTimestamps, interval)));
    return t;
  };

  /** A calculation with an AVERAGE_OVER window: run over the window's targets before the segment too. */
  async function computeWindowed(args: {
    calc: MeasurementCalc;
    program: ReturnType<typeof compileCalculation>;
    what: string;
    segment: { from: number; to: number };
    targets: Float64Array;
    allTargets: Float64Array;
  }): Promise<FieldSeries> {
    const { calc, program, what, segment, allTargets } = args;
    const windowMs = program.windowSeconds * 1000;
    const first = lowerBound(allTargets, segment.from - windowMs);
    const ext = allTargets.subarray(first, lowerBound(allTargets, segment.to));
    const skip = lowerBound(allTargets, segment.from) - first;
    const inputs: Record<string, Float64Array> = {};
    for (const id of calc.inputIds) {
      const inputName = name(id);
      if (!program.inputNames.includes(inputName)) continue;
      const channel = channelById.get(id);
      if (channel) {
        const raw = rawBySource.get(channel.data_source_id);
        const column = raw?.columns[channel.source];
        inputs[inputName] =
          raw && column
            ? sampleAndHold(raw.timestamps, column, ext, calc.preload)
            : new Float64Array(ext.length).fill(NaN);
      } else if (fieldName.has(id)) {
        const series = await seriesOf(id);
        const historyFrom = (ext[0] ?? from) - calc.preload * 1000;
        const history = historyFrom < from ? await readHistory(id, historyFrom, from) : undefined;
        const joined = history?.timestamps.length ? concatSeries([history, series]) : series;
        inputs[inputName] = latestEntryAtOrBefore(joined.timestamps, joined.values, ext, calc.preload);
      } else {
        throw new ExecutionError(
          `${what}: input ${id} is neither a channel of the ship nor a measurement field`,
        );
      }
    }
    const zone = (kind: ZoneKind) => zoneFor(kind, ext, calc.preload);
    const values = runCalculation(what, () =>
      program.evaluateTimestamps({
        timestamps: ext,
        inputs,
        isEcaZone: program.usesEcaZone ? zone('eca') : undefined,
        isNoDischargeZone: program.usesNoDischargeZone ? zone('noDischarge') : undefined,
        constants,
        budgetMs,
      }),
    );
    return { timestamps: ext.slice(skip), values: values.slice(skip) };
  }

  for (const fieldId of plan.order) {
    const calcs = plan.measurementCalcsByField.get(fieldId) ?? [];
    const segments = validitySegments<MeasurementCalc>(
      calcs.map(
        (c) =>
          ({
            item: c,
            from: c.validFrom,
            to: c.validTo,
            rank: c.approvedOn,
          }) satisfies Validity<MeasurementCalc>,
      ),
      from,
      to,
    );
    const parts: FieldSeries[] = [];
    for (const segment of segments) {
      const calc = segment.item;
      const what = `Measurement field ${name(fieldId)}, calculation ${calc.version}.${calc.revision}`;
      const allTargets = targetsAt(calc.interval);
      const targets = allTargets.subarray(
        lowerBound(allTargets, segment.from),
        lowerBound(allTargets, segment.to),
      );
      if (targets.length === 0) continue;
      const inputNames = calc.inputIds.map(name);
      const program = compileCalculation(
        'measurement-field',
        what,
        calc.algorithm,
        inputNames,
        calc.outputType,
      );
      if (program.windowSeconds > 0) {
        parts.push(
          await computeWindowed({
            calc,
            program,
            what,
            segment,
            targets,
            allTargets: axisWithLookback(calc.interval),
          }),
        );
        continue;
      }
      const inputs: Record<string, Float64Array> = {};
      for (const id of calc.inputIds) {
        const inputName = name(id);
        if (!program.inputNames.includes(inputName)) continue;
        const channel = channelById.get(id);
        if (channel) {
          const raw = rawBySource.get(channel.data_source_id);
          const column = raw?.columns[channel.source];
          inputs[inputName] =
            raw && column
              ? sampleAndHold(raw.timestamps, column, targets, calc.preload)
              : new Float64Array(targets.length).fill(NaN);
        } else if (fieldName.has(id)) {
          const series = await seriesOf(id);
          inputs[inputName] = latestEntryAtOrBefore(series.timestamps, series.values, targets, calc.preload);
        } else {
          throw new ExecutionError(
            `${what}: input ${id} is neither a channel of the ship nor a measurement field`,
          );
        }
      }
      const zoneOf = (kind: ZoneKind) =>
        zoneFor(kind, allTargets, calc.preload).subarray(
          lowerBound(allTargets, segment.from),
          lowerBound(allTargets, segment.to),
        );
      const isEcaZone = program.usesEcaZone ? zoneOf('eca') : undefined;
      const isNoDischargeZone = program.usesNoDischargeZone ? zoneOf('noDischarge') : undefined;
      const values = runCalculation(what, () =>
        program.evaluateTimestamps({
          timestamps: targets,
          inputs,
          isEcaZone,
          isNoDischargeZone,
          constants,
          budgetMs,
        }),
      );
      parts.push({ timestamps: targets, values });
    }
    measurement.set(fieldId, concatSeries(parts));
    // Let heartbeats and other requests through between fields.
    await yieldToEventLoop();
  }
  return measurement;
}

/**
 * A measurement field read by another one: its value at the latest timestamp it was calculated for, at or before
 * each target and within the preload interval — null when that value is null. The hold over blank samples belongs
 * to the raw channels (where a logger left a value out); holding a computed field's null (SO2_CO2_RATIO while the
 * scrubber is off) would carry stale values into RATIO_MARGIN for 5 minutes, and each derived layer would add
 * another preload interval to a raw gap (apps/api/test/correctness.test.ts).
 */
export function latestEntryAtOrBefore(
  ts: Float64Array,
  values: Float64Array,
  targets: Float64Array,
  preloadSeconds: number,
): Float64Array {
  if (ts === targets) return values;
  const out = new Float64Array(targets.length);
  const preload = preloadSeconds * 1000;
  let j = 0;
  for (let i = 0; i < targets.length; i++) {
    const t = targets[i]!;
    while (j < ts.length && ts[j]! <= t) j++;
    out[i] = j > 0 && t - ts[j - 1]! <= preload ? values[j - 1]! : NaN;
  }
  return out;
}
