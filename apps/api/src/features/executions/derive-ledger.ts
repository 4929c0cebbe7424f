import type { Kysely } from 'kysely';
import {
  DEFAULT_PORT_CALL_OPTIONS,
  derivePortCalls,
  FUEL_TYPES,
  prepareTrack,
  type Consumer,
  type FlowChannel,
  type FuelType,
  type FuelTypeSource,
  type PortCall,
  type PortLookup,
  type Track,
} from '@portal/contracts/rules/carbon';
import type { Database } from '../../db/schema';
import {
  concatSeries,
  readMeasurementValues,
  readRawSamples,
  type FieldSeries,
  type RawSamples,
} from '../../storage';
import { readCallCrossing, readCallDepartingAfter, type PortCallFacts } from '../../storage';
import { lowerBound } from '../../storage';
import { DAY_MS, ledgerSegments, type LedgerSegment } from './ledger-segments';
import type { FieldSeriesOf } from './measurement-fields';
import { ceilDayExclusive, floorDay, sampleAndHold } from './series';

/**
 * Step "port calls and voyages" (issue 31; docs/decisions/0111-carbon-ledger-engine.md): from the ship's LATITUDE,
 * LONGITUDE and speed over ground (a SHIP_SPEED field or channel) and its fuel flows, the port calls (the rules of
 * packages/contracts/src/rules/carbon, port-calls.ts) and the ledger's pieces of time (stays and voyages cut at UTC
 * midnights, ledger-segments.ts) of a window around the executed period; the store step (store-ledger.ts) replaces
 * what the window held and sums the voyages and the stays at berth from the pieces.
 *
 * The window is the executed days and one day on each side, widened to whole port calls: a stored call that reaches
 * over an edge, or a derived one, pulls the edge to its day. So every call that changes lies inside it, and the pieces
 * of every day a changed call touches are derived again. Positions are read two days further on each side, so the
 * track legs across the window's edges are whole.
 */

/** The measurement fields the ledger reads, by name. */
export const LEDGER_FIELDS = {
  latitude: 'LATITUDE',
  longitude: 'LONGITUDE',
  speed: 'SHIP_SPEED',
  fuelFlow: 'FUEL_FLOW',
  scrubberFuel: 'SCRUBBER_FUEL',
} as const;

/** Days on each side of the executed period whose pieces are derived again. */
const WINDOW_MARGIN_MS = DAY_MS;
/** Positions read beyond the window on each side (the track legs across its edges). */
const TRACK_MARGIN_MS = 2 * DAY_MS;
/** How far back a fuel type channel is read for the value in use at the window's start. */
const FUEL_TYPE_LOOKBACK_MS = DAY_MS;
/** A raw channel's value holds this long onto the targets, as the default calculations' preload. */
const RAW_HOLD_SECONDS = 300;
/** A derived call is a stored one when it is at the same port and arrives within this of it. */
export const CALL_IDENTITY_TOLERANCE_MS = 12 * 3_600_000;

/**
 * What the engine needs from the ports feature (wired by whoever runs the engine): the ports an organization's ships
 * call at, as a lookup asked at each fix's time (the reference with the organization's additions and corrections).
 * Each port's `id` is its key in the ledger: the UN/LOCODE of a reference port, `org:<id>` of an organization's own.
 */
export interface LedgerPortsPort {
  portsFor(db: Kysely<Database>, organizationId: string): Promise<PortLookup>;
}

/** No ports: every stay is at sea (no call), every piece a voyage. */
export const NO_LEDGER_PORTS: LedgerPortsPort = {
  portsFor: () => Promise.resolve({ ports: [], portAt: () => -1 }),
};

interface ChannelRef {
  id: string;
  dataSourceId: string;
  source: string;
  name: string;
}

/** Where a flow's fuel type comes from (its channel mapping), before it is read. */
export type FlowFuelSource =
  | { kind: 'fixed'; fuelType: FuelType }
  | { kind: 'channel'; channel: ChannelRef }
  | { kind: 'change-overs' }
  /** Not known (no mapping says): every sample's fuel is UNKNOWN, as the rules keep it. */
  | { kind: 'unknown' };

/** A fuel flow the ledger integrates: a measurement field or a raw channel (kg/h), its consumer and fuel type. */
export interface LedgerFlow {
  /** The key of its hours without fuel data: the channel's id, or the field's. */
  id: string;
  name: string;
  consumer: Consumer;
  read: { kind: 'field'; fieldId: string } | { kind: 'channel'; channel: ChannelRef };
  fuel: FlowFuelSource;
}

/** A ship's configuration for the ledger (loadLedgerConfig). */
export interface LedgerConfig {
  facilityId: string;
  organizationId: string;
  /** The ship's data (ms), null without any. */
  dataFrom: number | null;
  dataTo: number | null;
  latitudeFieldId: string | undefined;
  longitudeFieldId: string | undefined;
  speed: { kind: 'field'; fieldId: string } | { kind: 'channel'; channel: ChannelRef } | null;
  flows: LedgerFlow[];
  scrubberFuelFieldId: string | undefined;
  /** Every field the ledger reads (a recomputation of none of them leaves the ledger as it is). */
  inputFieldIds: Set<string>;
}

/**
 * The ship's configuration for the ledger: the fields it reads and its fuel flows. The flows are the ship's fuel flow
 * channels with their consumer and fuel type from the channel mapping; a ship whose mapping names no consumer has
 * its FUEL_FLOW field as the main engines' fuel, of unknown type (the ledger does not guess a fuel type: FUEL_SULFUR
 * says nothing certain about it).
 */
export async function loadLedgerConfig(
  db: Kysely<Database>,
  facilityId: string,
): Promise<LedgerConfig | null> {
  const facility = await db
    .selectFrom('facilities')
    .select(['primary_organization_id', 'data_timestamp_min', 'data_timestamp_max'])
    .where('id', '=', facilityId)
    .executeTakeFirst();
  if (!facility) return null;
  const fields = await db.selectFrom('measurement_fields').select(['id', 'name']).execute();
  const idOf = new Map(fields.map((f) => [f.name.toUpperCase(), f.id]));
  const calculated = new Set(
    (
      await db
        .selectFrom('measurement_field_calculations')
        .select('measurement_field_id')
        .distinct()
        .where('facility_id', '=', facilityId)
        .where('approved_on', 'is not', null)
        .execute()
    ).map((r) => r.measurement_field_id),
  );
  const field = (name: string) => {
    const id = idOf.get(name);
    return id && calculated.has(id) ? id : undefined;
  };
  const channels = await db
    .selectFrom('data_source_channels')
    .select([
      'id',
      'data_source_id',
      'source',
      'name',
      'consumer',
      'fuel_type_source',
      'fuel_type',
      'fuel_type_channel_id',
    ])
    .where('facility_id', '=', facilityId)
    .execute();
  const primary = await db
    .selectFrom('facility_data_sources')
    .select('id')
    .where('facility_id', '=', facilityId)
    .where('is_primary', '=', true)
    .executeTakeFirst();
  const channelNamed = (name: string) =>
    channels
      .filter((c) => c.name.toUpperCase() === name)
      .sort((a, b) => Number(b.data_source_id === primary?.id) - Number(a.data_source_id === primary?.id))[0];
  const ref = (c: (typeof channels)[number]): ChannelRef => ({
    id: c.id,
    dataSourceId: c.data_source_id,
    source: c.source,
    name: c.name,
  });
  // A raw field: an approved calculation that reads that one channel (FUEL_FLOW's reads the FUEL_FLOW channel).
  const rawFieldOf = new Map<string, string>();
  for (const calc of await db
    .selectFrom('measurement_field_calculations')
    .select(['measurement_field_id', 'input_ids'])
    .where('facility_id', '=', facilityId)
    .where('approved_on', 'is not', null)
    .orderBy('valid_from', 'desc')
    .execute()) {
    const inputs = calc.input_ids ?? [];
    if (inputs.length === 1 && !rawFieldOf.has(inputs[0]!))
      rawFieldOf.set(inputs[0]!, calc.measurement_field_id);
  }

  const speedFieldId = field(LEDGER_FIELDS.speed);
  const speedChannel = channelNamed(LEDGER_FIELDS.speed);
  const fuelFlowFieldId = field(LEDGER_FIELDS.fuelFlow);
  const byId = new Map(channels.map((c) => [c.id, c]));
  const mapped = channels.filter((c) => c.consumer !== null);
  const flows: LedgerFlow[] = mapped.length
    ? mapped.map((c) => {
        const fieldId = rawFieldOf.get(c.id);
        const typeChannel = c.fuel_type_channel_id ? byId.get(c.fuel_type_channel_id) : undefined;
        const fuel: FlowFuelSource =
          c.fuel_type_source === 'fixed' && c.fuel_type
            ? { kind: 'fixed', fuelType: c.fuel_type }
            : c.fuel_type_source === 'channel' && typeChannel
              ? { kind: 'channel', channel: ref(typeChannel) }
              : c.fuel_type_source === 'change-overs'
                ? { kind: 'change-overs' }
                : { kind: 'unknown' };
        return {
          id: c.id,
          name: c.name,
          consumer: c.consumer!,
          read:
            fieldId && calculated.has(fieldId)
              ? { kind: 'field', fieldId }
              : { kind: 'channel', channel: ref(c) },
          fuel,
        };
      })
    : fuelFlowFieldId
      ? [
          {
            id: fuelFlowFieldId,
            name: LEDGER_FIELDS.fuelFlow,
            consumer: 'MAIN_ENGINE',
            read: { kind: 'field', fieldId: fuelFlowFieldId },
            fuel: { kind: 'unknown' },
          },
        ]
      : [];
  const config: LedgerConfig = {
    facilityId,
    organizationId: facility.primary_organization_id,
    dataFrom: facility.data_timestamp_min ? new Date(facility.data_timestamp_min).getTime() : null,
    dataTo: facility.data_timestamp_max ? new Date(facility.data_timestamp_max).getTime() : null,
    latitudeFieldId: field(LEDGER_FIELDS.latitude),
    longitudeFieldId: field(LEDGER_FIELDS.longitude),
    speed: speedFieldId
      ? { kind: 'field', fieldId: speedFieldId }
      : speedChannel
        ? { kind: 'channel', channel: ref(speedChannel) }
        : null,
    flows,
    scrubberFuelFieldId: field(LEDGER_FIELDS.scrubberFuel),
    inputFieldIds: new Set(),
  };
  for (const id of [
    config.latitudeFieldId,
    config.longitudeFieldId,
    speedFieldId,
    config.scrubberFuelFieldId,
    ...flows.map((f) => (f.read.kind === 'field' ? f.read.fieldId : undefined)),
  ])
    if (id) config.inputFieldIds.add(id);
  return config;
}

/** What the step derived: the window it replaces, the calls arriving inside it, and its pieces. */
export interface LedgerDerivation {
  facilityId: string;
  /** Whole UTC days [from, to). */
  from: number;
  to: number;
  calls: (PortCallFacts & { call: PortCall })[];
  segments: LedgerSegment[];
}

export interface LedgerRequest {
  /** The executed period (whole UTC days). */
  from: number;
  to: number;
  /** The fields recomputed by the execution ('all' for a run of the ledger alone). */
  recomputed: 'all' | ReadonlySet<string>;
  /** The recomputed series of the period; without it, the stored ones are read. */
  seriesOf?: FieldSeriesOf;
}

const EMPTY: FieldSeries = { timestamps: new Float64Array(0), values: new Float64Array(0) };

/** A field's series over [a, b): the stored values outside the executed period, the recomputed ones inside. */
function fieldReader(db: Kysely<Database>, facilityId: string, request: LedgerRequest) {
  const { from, to, seriesOf } = request;
  return async (fieldId: string, a: number, b: number): Promise<FieldSeries> => {
    if (!seriesOf || b <= from || a >= to) return readMeasurementValues(db, facilityId, fieldId, a, b);
    const inside = await seriesOf(fieldId);
    const lo = lowerBound(inside.timestamps, Math.max(a, from));
    const hi = lowerBound(inside.timestamps, Math.min(b, to));
    const parts = [
      a < from ? await readMeasurementValues(db, facilityId, fieldId, a, from) : EMPTY,
      { timestamps: inside.timestamps.subarray(lo, hi), values: inside.values.subarray(lo, hi) },
      b > to ? await readMeasurementValues(db, facilityId, fieldId, to, b) : EMPTY,
    ].filter((p) => p.timestamps.length > 0);
    return parts.length ? concatSeries(parts) : EMPTY;
  };
}

/**
 * The raw channels the ledger reads (speed, flows without a field, fuel type channels), each data source read once
 * for all of them over the widest range asked (at least `span()`), then served from that read.
 */
function rawReader(
  db: Kysely<Database>,
  facilityId: string,
  refs: readonly ChannelRef[],
  span: () => { from: number; to: number },
) {
  const reads = new Map<string, { from: number; to: number; samples: Promise<RawSamples | undefined> }>();
  return async (ref: ChannelRef, from: number, to: number) => {
    let read = reads.get(ref.dataSourceId);
    if (!read || read.from > from || read.to < to) {
      const wide = { from: Math.min(from, span().from), to: Math.max(to, span().to) };
      const sources = [
        ...new Set(refs.filter((r) => r.dataSourceId === ref.dataSourceId).map((r) => r.source)),
      ];
      read = {
        ...wide,
        samples: readRawSamples(db, facilityId, {
          from: new Date(wide.from),
          to: new Date(wide.to),
          channels: sources,
          dataSourceId: ref.dataSourceId,
        }).then((all) => all.find((s) => s.dataSourceId === ref.dataSourceId)),
      };
      reads.set(ref.dataSourceId, read);
    }
    const raw = await read.samples;
    const column = raw?.columns[ref.source];
    return raw && column ? { timestamps: raw.timestamps, column } : undefined;
  };
}
type RawRead = ReturnType<typeof rawReader>;

/** A raw channel held onto `targets` (its value within the preload before each target), as a raw field is. */
async function channelOnTargets(
  readRaw: RawRead,
  channel: ChannelRef,
  targets: Float64Array,
): Promise<Float64Array> {
  if (targets.length === 0) return new Float64Array(0);
  const raw = await readRaw(channel, targets[0]! - RAW_HOLD_SECONDS * 1000, targets[targets.length - 1]!);
  return raw
    ? sampleAndHold(raw.timestamps, raw.column, targets, RAW_HOLD_SECONDS)
    : new Float64Array(targets.length).fill(NaN);
}

/** Values of `series` at `targets` (both ascending); NaN where the series has none at that time. */
function onTargets(targets: Float64Array, series: FieldSeries): Float64Array {
  const out = new Float64Array(targets.length).fill(NaN);
  let j = 0;
  for (let i = 0; i < targets.length; i++) {
    while (j < series.timestamps.length && series.timestamps[j]! < targets[i]!) j++;
    if (j < series.timestamps.length && series.timestamps[j] === targets[i]) out[i] = series.values[j]!;
  }
  return out;
}

/**
 * The fuel change-overs of the ship's record book with a fuel type (body.fuelType, a code of FUEL_TYPES), leaving
 * out the entries a later correction corrected: the `change-overs` fuel type source.
 */
async function recordedFuelTypes(db: Kysely<Database>, facilityId: string) {
  const entries = await db
    .selectFrom('record_book_entries')
    .select(['id', 'kind', 'occurred_on', 'corrects_id', 'body'])
    .where('facility_id', '=', facilityId)
    .where('kind', 'in', ['fuel-change-over', 'correction'])
    .orderBy('sequence')
    .execute();
  const corrected = new Set(entries.map((e) => e.corrects_id).filter((id) => id !== null));
  const changeOvers: { at: number; fuelType: FuelType }[] = [];
  for (const e of entries) {
    const fuelType = (e.body as { fuelType?: unknown } | null)?.fuelType;
    if (corrected.has(e.id) || !FUEL_TYPES.includes(fuelType as FuelType)) continue;
    changeOvers.push({ at: new Date(e.occurred_on).getTime(), fuelType: fuelType as FuelType });
  }
  return changeOvers.sort((a, b) => a.at - b.at);
}

/**
 * The step: null when the ship has no position fields or the execution recomputed none of its inputs. The window is
 * replaced whole: days of it where the ship has no data (deleted) lose their pieces and calls.
 */
export async function deriveLedger(
  db: Kysely<Database>,
  config: LedgerConfig | null,
  request: LedgerRequest,
  ports: LedgerPortsPort,
): Promise<LedgerDerivation | null> {
  if (!config?.latitudeFieldId || !config.longitudeFieldId) return null;
  const { recomputed } = request;
  if (recomputed !== 'all' && ![...config.inputFieldIds].some((id) => recomputed.has(id))) return null;
  const { facilityId, dataFrom, dataTo } = config;

  // The window: the executed days and a day on each side, widened to the stored calls reaching over its edges.
  let from = request.from - WINDOW_MARGIN_MS;
  let to = request.to + WINDOW_MARGIN_MS;
  const crossingStart = await readCallCrossing(db, facilityId, from);
  if (crossingStart !== null) from = Math.min(from, floorDay(crossingStart));
  const crossingEnd = await readCallDepartingAfter(db, facilityId, to);
  if (crossingEnd !== null) to = Math.max(to, ceilDayExclusive(crossingEnd));
  // Without data (all of it deleted) the window keeps nothing.
  if (dataFrom === null || dataTo === null) return { facilityId, from, to, calls: [], segments: [] };
  const read = fieldReader(db, facilityId, request);
  const lookup = await ports.portsFor(db, config.organizationId);
  let readFrom = from - TRACK_MARGIN_MS;
  let readTo = to + TRACK_MARGIN_MS;
  const rawRefs = [
    ...(config.speed?.kind === 'channel' ? [config.speed.channel] : []),
    ...config.flows.flatMap((f) => [
      ...(f.read.kind === 'channel' ? [f.read.channel] : []),
      ...(f.fuel.kind === 'channel' ? [f.fuel.channel] : []),
    ]),
  ];
  const readRaw = rawReader(db, facilityId, rawRefs, () => ({
    from: readFrom - RAW_HOLD_SECONDS * 1000,
    to: readTo,
  }));

  // Positions, widened until no derived call reaches over the window's edges.
  let track: Track | undefined;
  let targets = new Float64Array(0);
  let calls: PortCall[] = [];
  for (let attempt = 0; attempt < 20; attempt++) {
    readFrom = from - TRACK_MARGIN_MS;
    readTo = to + TRACK_MARGIN_MS;
    const [latitude, longitude] = await Promise.all([
      read(config.latitudeFieldId, readFrom, readTo),
      read(config.longitudeFieldId, readFrom, readTo),
    ]);
    targets = Float64Array.from(latitude.timestamps);
    const speed = !config.speed
      ? undefined
      : config.speed.kind === 'field'
        ? onTargets(targets, await read(config.speed.fieldId, readFrom, readTo))
        : await channelOnTargets(readRaw, config.speed.channel, targets);
    track = prepareTrack(
      {
        timestamps: targets,
        latitude: latitude.values,
        longitude: onTargets(targets, longitude),
        sog: speed,
      },
      DEFAULT_PORT_CALL_OPTIONS,
    );
    calls = derivePortCalls(track, lookup, DEFAULT_PORT_CALL_OPTIONS);
    // A call reaching over an edge (or beginning or ending with what was read) pulls the edge to its day.
    let newFrom = from;
    let newTo = to;
    for (const c of calls) {
      if (c.arrival < from && c.departure >= from) newFrom = Math.min(newFrom, floorDay(c.arrival));
      if (c.arrival < to && c.departure >= to) newTo = Math.max(newTo, ceilDayExclusive(c.departure));
    }
    const widened = newFrom !== from || newTo !== to;
    from = newFrom;
    to = newTo;
    if (!widened) break;
  }
  if (!track) return null;

  const kept = calls.filter((c) => c.arrival >= from && c.arrival < to);
  const callFacts = kept.map((call) => {
    const port = lookup.ports[call.portIndex]!;
    return {
      call,
      portKey: port.id,
      locode: port.locode ?? null,
      portName: port.name,
      country: port.country ?? '',
      arrival: call.arrival,
      departure: call.departure,
      gapMs: call.gapMs,
      // Open only where the ship's data begins or ends, not where the read did.
      openStart: call.openStart && readFrom <= dataFrom,
      openEnd: call.openEnd && readTo > dataTo,
    };
  });

  // Fuel flows on the positions' targets, with the fuel type of each sample.
  let changeOvers: { at: number; fuelType: FuelType }[] | undefined;
  const fuelSource = async (source: FlowFuelSource): Promise<FuelTypeSource> => {
    switch (source.kind) {
      case 'fixed':
        return { kind: 'fixed', fuelType: source.fuelType };
      case 'unknown':
        return { kind: 'change-overs', changeOvers: [] };
      case 'change-overs':
        changeOvers ??= await recordedFuelTypes(db, facilityId);
        return { kind: 'change-overs', changeOvers };
      case 'channel': {
        const raw = await readRaw(source.channel, from - FUEL_TYPE_LOOKBACK_MS, to - 1);
        const at: number[] = [];
        const codes: number[] = [];
        // A missing value is no change of fuel: the last logged code holds until the next.
        if (raw) {
          const lo = lowerBound(raw.timestamps, from - FUEL_TYPE_LOOKBACK_MS);
          const hi = lowerBound(raw.timestamps, to);
          for (let i = lo; i < hi; i++)
            if (!Number.isNaN(raw.column[i]!)) {
              at.push(raw.timestamps[i]!);
              codes.push(raw.column[i]!);
            }
        }
        return { kind: 'series', timestamps: at, values: codes };
      }
    }
  };
  const windowTargets = targets.subarray(lowerBound(targets, from), lowerBound(targets, to));
  const flowSeries = async (flow: LedgerFlow): Promise<Float64Array> =>
    flow.read.kind === 'field'
      ? onTargets(windowTargets, await read(flow.read.fieldId, from, to))
      : channelOnTargets(readRaw, flow.read.channel, windowTargets);
  const channels = await Promise.all(
    config.flows.map(
      async (flow) =>
        ({
          id: flow.id,
          consumer: flow.consumer,
          fuel: await fuelSource(flow.fuel),
          series: { timestamps: windowTargets, values: await flowSeries(flow) },
        }) satisfies FlowChannel,
    ),
  );
  // The scrubber's power comes from the generators: its fuel is the auxiliary engines' (else the main engines').
  const generators =
    config.flows.find((f) => f.consumer === 'AUX_ENGINE') ??
    config.flows.find((f) => f.consumer === 'MAIN_ENGINE');
  const scrubber = config.scrubberFuelFieldId
    ? ({
        id: config.scrubberFuelFieldId,
        consumer: 'AUX_ENGINE',
        fuel: await fuelSource(generators?.fuel ?? { kind: 'unknown' }),
        series: {
          timestamps: windowTargets,
          values: onTargets(windowTargets, await read(config.scrubberFuelFieldId, from, to)),
        },
      } satisfies FlowChannel)
    : null;

  const segments = ledgerSegments({
    track,
    calls: kept,
    channels,
    scrubber,
    from,
    to,
    dataFrom,
    dataTo,
  });
  return { facilityId, from, to, calls: callFacts, segments };
}
