import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { sql, type Kysely, type Transaction } from 'kysely';
import {
  compile,
  FormulaRuntimeError,
  type CompiledCalculation,
  type FacilityConstants,
  type FormulaError,
  type OutputType,
} from '@portal/formula';
import { ecaZoneColumn } from '@portal/contracts/eca';
import type { Database } from '../db/schema';
import { inTransaction } from '../db/transaction';
import { packFloat64 } from '../features/files/packed';
import { readRawSamples } from '../features/files/samples';
import { refreshDailyRollup } from '../features/reports/rollup';
import {
  DAY_MS,
  alignExact,
  dayChunks,
  dayText,
  dependencyOrder,
  float64Of,
  lowerBound,
  sampleAndHold,
  thinToInterval,
  unionAxis,
  validitySegments,
  CycleError,
  type Validity,
} from './series';

/**
 * The execution engine (docs/decisions/0040-execution.md): from a ship's raw samples to measurement field values
 * (per target timestamp) and report values (per span), for whole UTC days, written in one transaction that replaces
 * what the period held before.
 */

/** An error in the data or the calculations: retrying will not help, so the job fails at once with this text. */
export class ExecutionError extends Error {
  readonly permanent = true;
}

export interface ComputeRequest {
  facilityId: string;
  /** Whole UTC days: from is a day start, to the (exclusive) start of the day after the last. */
  from: number;
  to: number;
  /** Measurement fields to recompute ('all', or these ids); the others are read from storage when needed. */
  measurementFieldIds: 'all' | ReadonlySet<string>;
  /** Report fields to recompute. */
  reportFieldIds: 'all' | ReadonlySet<string>;
  /** Time budget of one evaluation of a calculation (ms). */
  budgetMs?: number;
  /** Stage timings (ms) are added here when given. */
  timings?: Record<string, number>;
}

interface FieldSeries {
  timestamps: Float64Array<ArrayBufferLike>;
  values: Float64Array<ArrayBufferLike>;
}

export interface Computed {
  request: ComputeRequest;
  /** Recomputed measurement fields (ids), each with its series inside [from, to). */
  measurement: Map<string, FieldSeries>;
  /** Recomputed report fields (ids), each with span starts and values. */
  report: Map<string, { spanStarts: Float64Array; values: Float64Array }>;
  /** The field ids whose stored rows the write replaces. */
  replaceMeasurementFieldIds: 'all' | string[];
  replaceReportFieldIds: 'all' | string[];
}

interface MeasurementCalc {
  id: string;
  fieldId: string;
  version: number;
  revision: number;
  interval: number;
  preload: number;
  inputIds: string[];
  algorithm: string;
  outputType: OutputType;
  validFrom: number;
  validTo: number;
  approvedOn: number;
}

interface ReportCalc {
  id: string;
  fieldId: string;
  version: number;
  revision: number;
  span: number;
  inputIds: string[];
  algorithm: string;
  validFrom: number;
  validTo: number;
  approvedOn: number;
}

const time = (d: Date | null | undefined, fallback: number) => (d ? new Date(d).getTime() : fallback);

function timed<T>(timings: Record<string, number> | undefined, stage: string, started: number, value: T): T {
  if (timings) timings[stage] = (timings[stage] ?? 0) + (performance.now() - started);
  return value;
}

function describeFormulaErrors(what: string, errors: readonly FormulaError[]): string {
  const e = errors[0]!;
  const at = e.startLine > 0 ? ` (line ${e.startLine}, character ${e.startCharacter})` : '';
  return `${what}: ${e.message}${at}${errors.length > 1 ? ` and ${errors.length - 1} more error(s)` : ''}`;
}

/** Compiles once per calculation; a failed compile is a permanent error of the execution. */
function compileCalc(
  kind: 'measurement-field' | 'report-field',
  what: string,
  algorithm: string,
  inputNames: string[],
  outputType?: OutputType,
): CompiledCalculation {
  const compiled = compile(algorithm, { kind, inputNames, outputType });
  if (!compiled.ok) throw new ExecutionError(describeFormulaErrors(what, compiled.errors));
  return compiled.program;
}

function runCalc<T>(what: string, run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof FormulaRuntimeError) {
      throw new ExecutionError(
        describeFormulaErrors(what, [
          { message: error.message, startLine: error.startLine, startCharacter: error.startCharacter },
        ]),
      );
    }
    throw error;
  }
}

/** Computes (does not store) the values of a ship's period. */
export async function computePeriod(db: Kysely<Database>, request: ComputeRequest): Promise<Computed> {
  const { facilityId, from, to, timings } = request;
  let started = performance.now();
  const facility = await db
    .selectFrom('facilities')
    .select(['id', 'name', 'imo', 'number_of_scrubbers', 'scrubber_system_type', 'total_effect_kw'])
    .where('id', '=', facilityId)
    .executeTakeFirst();
  if (!facility) throw new ExecutionError('The ship no longer exists');
  const constants: FacilityConstants = {
    Facility_IMO: facility.imo ?? '',
    Facility_NumberOfScrubbers: facility.number_of_scrubbers ?? 0,
    Facility_ScrubberSystemType: facility.scrubber_system_type ?? '',
    Facility_TotalEffectKW: facility.total_effect_kw ?? 0,
  };
  const primary = await db
    .selectFrom('facility_data_sources')
    .select(['id'])
    .where('facility_id', '=', facilityId)
    .where('is_primary', '=', true)
    .executeTakeFirst();
  const channels = await db
    .selectFrom('data_source_channels')
    .select(['id', 'data_source_id', 'source', 'name'])
    .where('facility_id', '=', facilityId)
    .execute();
  const channelById = new Map(channels.map((c) => [c.id, c]));
  const fields = await db.selectFrom('measurement_fields').select(['id', 'name']).execute();
  const fieldName = new Map(fields.map((f) => [f.id, f.name]));
  const nameOf = (id: string) => fieldName.get(id) ?? channelById.get(id)?.name ?? id;

  const periodStart = new Date(from);
  const periodEnd = new Date(to);
  const measurementRows = await db
    .selectFrom('measurement_field_calculations')
    .select([
      'id',
      'measurement_field_id',
      'version',
      'revision',
      'required_sample_interval_seconds',
      'preload_interval_seconds',
      'input_ids',
      'transform_algorithm',
      'output_type',
      'valid_from',
      'valid_to',
      'approved_on',
    ])
    .where('facility_id', '=', facilityId)
    .where('approved_on', 'is not', null)
    .where((eb) => eb.or([eb('valid_from', 'is', null), eb('valid_from', '<', periodEnd)]))
    .where((eb) => eb.or([eb('valid_to', 'is', null), eb('valid_to', '>', periodStart)]))
    .execute();
  const measurementCalcs: MeasurementCalc[] = measurementRows.map((r) => ({
    id: r.id,
    fieldId: r.measurement_field_id,
    version: r.version,
    revision: r.revision,
    interval: r.required_sample_interval_seconds,
    preload: r.preload_interval_seconds,
    inputIds: r.input_ids ?? [],
    algorithm: r.transform_algorithm,
    outputType: r.output_type as OutputType,
    validFrom: time(r.valid_from, -Infinity),
    validTo: time(r.valid_to, Infinity),
    approvedOn: time(r.approved_on, 0),
  }));
  const reportRows = await db
    .selectFrom('report_field_calculations')
    .select([
      'id',
      'report_field_id',
      'version',
      'revision',
      'algorithm_seconds_span',
      'input_ids',
      'transform_algorithm',
      'valid_from',
      'valid_to',
      'approved_on',
    ])
    .where('approved_on', 'is not', null)
    .where((eb) => eb.or([eb('valid_from', 'is', null), eb('valid_from', '<', periodEnd)]))
    .where((eb) => eb.or([eb('valid_to', 'is', null), eb('valid_to', '>', periodStart)]))
    .execute();
  const reportCalcs: ReportCalc[] = reportRows.map((r) => ({
    id: r.id,
    fieldId: r.report_field_id,
    version: r.version,
    revision: r.revision,
    span: r.algorithm_seconds_span,
    inputIds: r.input_ids ?? [],
    algorithm: r.transform_algorithm,
    validFrom: time(r.valid_from, -Infinity),
    validTo: time(r.valid_to, Infinity),
    approvedOn: time(r.approved_on, 0),
  }));
  timed(timings, 'load configuration', started, null);

  // Which measurement fields to compute: the requested ones that have a calculation in the period.
  const calcsByField = new Map<string, MeasurementCalc[]>();
  for (const c of measurementCalcs) calcsByField.set(c.fieldId, [...(calcsByField.get(c.fieldId) ?? []), c]);
  const wanted = request.measurementFieldIds;
  const dependsOn = new Map<string, Set<string>>();
  for (const [fieldId, calcs] of calcsByField) {
    if (wanted !== 'all' && !wanted.has(fieldId)) continue;
    dependsOn.set(fieldId, new Set(calcs.flatMap((c) => c.inputIds.filter((id) => fieldName.has(id)))));
  }
  let order: string[];
  try {
    order = dependencyOrder(dependsOn, nameOf);
  } catch (error) {
    if (error instanceof CycleError) throw new ExecutionError(error.message);
    throw error;
  }

  const computed: Computed = {
    request,
    measurement: new Map(),
    report: new Map(),
    replaceMeasurementFieldIds: wanted === 'all' ? 'all' : [...wanted],
    replaceReportFieldIds: request.reportFieldIds === 'all' ? 'all' : [...request.reportFieldIds],
  };

  // Raw samples: the channels the calculations read, plus the position for ISECAZONE, with the preload before `from`.
  started = performance.now();
  const computedCalcs = order.flatMap((id) => calcsByField.get(id) ?? []);
  const maxPreload = Math.max(0, ...computedCalcs.map((c) => c.preload));
  const neededChannels = new Map<string, Set<string>>(); // data source -> raw column names
  const need = (dataSourceId: string, source: string) => {
    const set = neededChannels.get(dataSourceId) ?? new Set<string>();
    set.add(source);
    neededChannels.set(dataSourceId, set);
  };
  for (const c of computedCalcs)
    for (const id of c.inputIds)
      if (channelById.has(id)) need(channelById.get(id)!.data_source_id, channelById.get(id)!.source);
  const positionChannel = (name: string) =>
    channels
      .filter((c) => c.name.toLowerCase() === name.toLowerCase())
      .sort((a, b) => Number(b.data_source_id === primary?.id) - Number(a.data_source_id === primary?.id))[0];
  const latitude = positionChannel('LATITUDE');
  const longitude = positionChannel('LONGITUDE');
  if (latitude) need(latitude.data_source_id, latitude.source);
  if (longitude) need(longitude.data_source_id, longitude.source);

  let primaryTimestamps: Float64Array<ArrayBufferLike> = new Float64Array(0);
  const rawBySource = new Map<string, { timestamps: Float64Array; columns: Record<string, Float64Array> }>();
  if (order.length > 0) {
    if (!primary)
      throw new ExecutionError(
        'The ship has no primary data source: its timestamps decide when the measurement fields are calculated',
      );
    const sourceIds = new Set([primary.id, ...neededChannels.keys()]);
    for (const dataSourceId of sourceIds) {
      const samples = await readRawSamples(db, facilityId, {
        from: new Date(from - maxPreload * 1000),
        to: new Date(to - 1),
        channels: [...(neededChannels.get(dataSourceId) ?? [])],
        dataSourceId,
      });
      const s = samples.find((x) => x.dataSourceId === dataSourceId);
      if (s) rawBySource.set(dataSourceId, s);
    }
    const p = rawBySource.get(primary.id);
    if (p)
      primaryTimestamps = p.timestamps.subarray(lowerBound(p.timestamps, from), lowerBound(p.timestamps, to));
  }
  timed(timings, 'read samples', started, null);

  // Measurement fields in dependency order.
  started = performance.now();
  const eca = new Map<Float64Array, Uint8Array>();
  const ecaFor = (targets: Float64Array, preload: number): Uint8Array => {
    const cached = eca.get(targets);
    if (cached) return cached;
    const held = (ch: typeof latitude) => {
      const raw = ch ? rawBySource.get(ch.data_source_id) : undefined;
      const column = raw && ch ? raw.columns[ch.source] : undefined;
      return raw && column
        ? sampleAndHold(raw.timestamps, column, targets, preload)
        : new Float64Array(targets.length).fill(NaN);
    };
    const lat = held(latitude);
    const lon = held(longitude);
    const zone = ecaZoneColumn(lat, lon, targets);
    // No position: unknown (null in the language), not "outside".
    for (let i = 0; i < zone.length; i++) if (Number.isNaN(lat[i]!) || Number.isNaN(lon[i]!)) zone[i] = 255;
    eca.set(targets, zone);
    return zone;
  };
  const storedCache = new Map<string, FieldSeries>();
  const fieldInput = async (fieldId: string): Promise<FieldSeries> => {
    const fresh = computed.measurement.get(fieldId);
    if (fresh) return fresh;
    let stored = storedCache.get(fieldId);
    if (!stored)
      storedCache.set(fieldId, (stored = await readMeasurementValues(db, facilityId, fieldId, from, to)));
    return stored;
  };
  const targetsByInterval = new Map<number, Float64Array>();
  const targetsAt = (interval: number) => {
    let t = targetsByInterval.get(interval);
    if (!t) targetsByInterval.set(interval, (t = thinToInterval(primaryTimestamps, interval)));
    return t;
  };

  for (const fieldId of order) {
    const calcs = calcsByField.get(fieldId) ?? [];
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
      const what = `Measurement field ${nameOf(fieldId)}, calculation ${calc.version}.${calc.revision}`;
      const allTargets = targetsAt(calc.interval);
      const targets = allTargets.subarray(
        lowerBound(allTargets, segment.from),
        lowerBound(allTargets, segment.to),
      );
      if (targets.length === 0) continue;
      const inputNames = calc.inputIds.map(nameOf);
      const program = compileCalc('measurement-field', what, calc.algorithm, inputNames, calc.outputType);
      const inputs: Record<string, Float64Array> = {};
      for (const id of calc.inputIds) {
        const name = nameOf(id);
        if (!program.inputNames.includes(name)) continue;
        const channel = channelById.get(id);
        if (channel) {
          const raw = rawBySource.get(channel.data_source_id);
          const column = raw?.columns[channel.source];
          inputs[name] =
            raw && column
              ? sampleAndHold(raw.timestamps, column, targets, calc.preload)
              : new Float64Array(targets.length).fill(NaN);
        } else if (fieldName.has(id)) {
          const series = await fieldInput(id);
          inputs[name] = latestEntryAtOrBefore(series.timestamps, series.values, targets, calc.preload);
        } else {
          throw new ExecutionError(
            `${what}: input ${id} is neither a channel of the ship nor a measurement field`,
          );
        }
      }
      const isEcaZone = program.usesEcaZone
        ? ecaFor(allTargets, calc.preload).subarray(
            lowerBound(allTargets, segment.from),
            lowerBound(allTargets, segment.to),
          )
        : undefined;
      const values = runCalc(what, () =>
        program.evaluateTimestamps({
          timestamps: targets,
          inputs,
          isEcaZone,
          constants,
          budgetMs: request.budgetMs,
        }),
      );
      parts.push({ timestamps: targets, values });
    }
    computed.measurement.set(fieldId, concatSeries(parts));
    // Let heartbeats and other requests through between fields.
    await yieldToEventLoop();
  }
  timed(timings, 'measurement fields', started, null);

  // Report fields: per span, from the measurement field values.
  started = performance.now();
  const reportCalcsByField = new Map<string, ReportCalc[]>();
  for (const c of reportCalcs) {
    if (request.reportFieldIds !== 'all' && !request.reportFieldIds.has(c.fieldId)) continue;
    reportCalcsByField.set(c.fieldId, [...(reportCalcsByField.get(c.fieldId) ?? []), c]);
  }
  const reportFieldNames = new Map(
    reportCalcsByField.size
      ? (
          await db
            .selectFrom('report_fields')
            .select(['id', 'name', 'report_id'])
            .where('id', 'in', [...reportCalcsByField.keys()])
            .execute()
        ).map((r) => [r.id, `${r.report_id} ${r.name}`])
      : [],
  );
  for (const [reportFieldId, calcs] of reportCalcsByField) {
    const segments = validitySegments<ReportCalc>(
      calcs.map((c) => ({ item: c, from: c.validFrom, to: c.validTo, rank: c.approvedOn })),
      from,
      to,
    );
    const starts: number[] = [];
    const values: number[] = [];
    for (const segment of segments) {
      const calc = segment.item;
      const what = `Report field ${reportFieldNames.get(reportFieldId) ?? reportFieldId}, calculation ${calc.version}.${calc.revision}`;
      const inputIds = calc.inputIds.filter((id) => fieldName.has(id));
      if (inputIds.length !== calc.inputIds.length)
        throw new ExecutionError(`${what}: an input is not a measurement field`);
      const program = compileCalc('report-field', what, calc.algorithm, inputIds.map(nameOf));
      const series = await Promise.all(inputIds.map(fieldInput));
      const axis = unionAxis(series.map((s) => s.timestamps));
      const lo = lowerBound(axis, segment.from);
      const hi = lowerBound(axis, segment.to);
      if (hi <= lo) continue;
      const timestamps = axis.subarray(lo, hi);
      const inputs: Record<string, Float64Array> = {};
      inputIds.forEach((id, k) => {
        if (program.inputNames.includes(nameOf(id)))
          inputs[nameOf(id)] = alignExact(series[k]!.timestamps, series[k]!.values, axis).subarray(lo, hi);
      });
      // The spans that hold at least one target timestamp.
      const spanMs = calc.span * 1000;
      const spanStarts: number[] = [];
      for (let i = 0; i < timestamps.length; i++) {
        const s = Math.floor(timestamps[i]! / spanMs) * spanMs;
        if (spanStarts[spanStarts.length - 1] !== s) spanStarts.push(s);
      }
      const out = runCalc(what, () =>
        program.evaluateSpans({
          spanStarts: Float64Array.from(spanStarts),
          spanSeconds: calc.span,
          timestamps,
          inputs,
          constants,
          budgetMs: request.budgetMs,
        }),
      );
      for (let i = 0; i < spanStarts.length; i++) {
        starts.push(spanStarts[i]!);
        values.push(out[i]!);
      }
    }
    computed.report.set(reportFieldId, {
      spanStarts: Float64Array.from(starts),
      values: Float64Array.from(values),
    });
    await yieldToEventLoop();
  }
  timed(timings, 'report fields', started, null);
  return computed;
}

function concatSeries(parts: FieldSeries[]): FieldSeries {
  if (parts.length === 1) return parts[0]!;
  const n = parts.reduce((s, p) => s + p.timestamps.length, 0);
  const timestamps = new Float64Array(n);
  const values = new Float64Array(n);
  let at = 0;
  for (const p of parts) {
    timestamps.set(p.timestamps, at);
    values.set(p.values, at);
    at += p.timestamps.length;
  }
  return { timestamps, values };
}

/** Stored values of one measurement field of a ship within [from, to). */
export async function readMeasurementValues(
  db: Kysely<Database>,
  facilityId: string,
  fieldId: string,
  from: number,
  to: number,
): Promise<FieldSeries> {
  const rows = await db
    .selectFrom('measurement_values')
    .select(['timestamps', 'values'])
    .where('facility_id', '=', facilityId)
    .where('measurement_field_id', '=', fieldId)
    .where('day', '>=', dayText(Math.floor(from / DAY_MS) * DAY_MS))
    .where('day', '<', dayText(Math.ceil(to / DAY_MS) * DAY_MS))
    .orderBy('day')
    .execute();
  const parts = rows.map((r) => {
    const ts = float64Of(r.timestamps);
    const vs = float64Of(r.values);
    const lo = lowerBound(ts, from);
    const hi = lowerBound(ts, to);
    return { timestamps: ts.subarray(lo, hi), values: vs.subarray(lo, hi) };
  });
  return parts.length
    ? concatSeries(parts)
    : { timestamps: new Float64Array(0), values: new Float64Array(0) };
}

const MEASUREMENT_ROWS_PER_INSERT = 1_000;
const MEASUREMENT_BYTES_PER_INSERT = 16 * 1024 * 1024;
const REPORT_ROWS_PER_INSERT = 20_000;

/**
 * Replaces the stored values of the computed period in the given transaction: deletes the period's rows of the
 * recomputed fields, inserts the new ones and refreshes the daily roll-up. Whole days, so no chunk is merged.
 */
export async function storeComputed(
  trx: Transaction<Database>,
  computed: Computed,
): Promise<{ measurementRows: number; reportRows: number }> {
  const { facilityId, from, to, timings } = computed.request;
  let started = performance.now();
  const fromDay = dayText(from);
  const toDay = dayText(to);
  const mIds = computed.replaceMeasurementFieldIds;
  const rIds = computed.replaceReportFieldIds;

  if (mIds === 'all' || mIds.length > 0) {
    let del = trx
      .deleteFrom('measurement_values')
      .where('facility_id', '=', facilityId)
      .where('day', '>=', fromDay)
      .where('day', '<', toDay);
    if (mIds !== 'all') del = del.where('measurement_field_id', 'in', mIds);
    await del.execute();
  }
  let batch: {
    facility_id: string;
    measurement_field_id: string;
    day: string;
    row_count: number;
    timestamps: Buffer;
    values: Buffer;
  }[] = [];
  let batchBytes = 0;
  let measurementRows = 0;
  const flush = async () => {
    if (batch.length) await trx.insertInto('measurement_values').values(batch).execute();
    measurementRows += batch.length;
    batch = [];
    batchBytes = 0;
  };
  // Fields of the same interval share their targets (views of one array): a day's timestamps are packed once.
  const packedDays = new Map<ArrayBufferLike, Map<string, Buffer>>();
  for (const [fieldId, series] of computed.measurement) {
    let days = packedDays.get(series.timestamps.buffer);
    if (!days) packedDays.set(series.timestamps.buffer, (days = new Map()));
    for (const chunk of dayChunks(series.timestamps)) {
      const slice = series.timestamps.subarray(chunk.start, chunk.end);
      const key = `${slice.byteOffset}:${slice.length}`;
      let timestamps = days.get(key);
      if (!timestamps) days.set(key, (timestamps = packFloat64(slice)));
      const values = packFloat64(series.values.subarray(chunk.start, chunk.end));
      batch.push({
        facility_id: facilityId,
        measurement_field_id: fieldId,
        day: dayText(chunk.day),
        row_count: chunk.end - chunk.start,
        timestamps,
        values,
      });
      batchBytes += timestamps.length + values.length;
      if (batch.length >= MEASUREMENT_ROWS_PER_INSERT || batchBytes >= MEASUREMENT_BYTES_PER_INSERT)
        await flush();
    }
  }
  await flush();
  timed(timings, 'store measurement values', started, null);

  started = performance.now();
  if (rIds === 'all' || rIds.length > 0) {
    let del = trx
      .deleteFrom('report_values')
      .where('facility_id', '=', facilityId)
      .where('span_start', '>=', new Date(from))
      .where('span_start', '<', new Date(to));
    if (rIds !== 'all') del = del.where('report_field_id', 'in', rIds);
    await del.execute();
  }
  // One statement per report field: the span starts as epoch ms and the values as float8 arrays (cheaper to send
  // and parse than one row of parameters per value).
  let reportRows = 0;
  for (const [fieldId, r] of computed.report) {
    const starts: number[] = [];
    const values: (number | null)[] = [];
    for (let i = 0; i < r.spanStarts.length; i++) {
      const s = r.spanStarts[i]!;
      if (s < from || s >= to) continue;
      const v = r.values[i]!;
      starts.push(s);
      values.push(Number.isFinite(v) ? v : null);
    }
    for (let at = 0; at < starts.length; at += REPORT_ROWS_PER_INSERT) {
      await sql`
        insert into report_values (facility_id, report_field_id, span_start, value)
        select ${facilityId}::uuid, ${fieldId}::uuid, to_timestamp(s / 1000.0), v
        from unnest(${starts.slice(at, at + REPORT_ROWS_PER_INSERT)}::float8[], ${values.slice(at, at + REPORT_ROWS_PER_INSERT)}::float8[]) as u(s, v)
      `.execute(trx);
    }
    reportRows += starts.length;
  }
  timed(timings, 'store report values', started, null);

  started = performance.now();
  if (rIds === 'all' || rIds.length > 0)
    await refreshDailyRollup(inTransaction(trx), facilityId, rIds, new Date(from), new Date(to - 1));
  timed(timings, 'daily roll-up', started, null);
  return { measurementRows, reportRows };
}

export { inTransaction };

// --- KPI correctness fix (reports engineer; apps/api/test/correctness.test.ts) -------------------------------
/**
 * A measurement field read by another one: its value at the latest timestamp it was calculated for, at or before
 * each target and within the preload interval — null when that value is null. The hold over blank samples belongs
 * to the raw channels (where a logger left a value out); holding a computed field's null (SO2_CO2_RATIO while the
 * scrubber is off) would carry stale values into RATIO_MARGIN for 5 minutes, and each derived layer would add
 * another preload interval to a raw gap.
 */
function latestEntryAtOrBefore(
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
