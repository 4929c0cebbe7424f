import type { Kysely } from 'kysely';
import type { ComplianceEvent, EventReportStatus, RecordBookEntryView } from '@portal/contracts/events';
import { HEALTH_FLAG_KINDS, type HealthFlagKind, type HealthStatus } from '@portal/contracts/data-health';
import { REPORT_CODES, type ReportFieldValue } from '@portal/contracts/reports';
import { formatByFormat } from '@portal/contracts/rules';
import type { Database } from '../../db/schema';
import { readRecordBook, verifyRecordBook, type VerifyResult } from '../../storage';
import { calculationsInForce, type CalculationInForce } from '../calculations/queries';
import { computeDataHealth } from '../data-health/service';
import { shipEventsInPeriod } from '../events/queries';
import { reportStatusOf } from '../events/report';
import { presentEntry } from '../events/service';
import { findReport, reportFields } from '../reports/queries';
import { reportFieldValueSources } from '../reports/sources';
import { reportData } from '../reports/values';
import type { ChartPoint } from './chart';

/**
 * What an inspection pack's PDF says, read from where each thing lives (docs/decisions/0106-inspection-packs.md):
 * the KPIs through the reports' data assembly (reports/values.ts, the dashboards' numbers), the events through
 * events/queries.ts, the record book and its verification through storage/record-book.ts, the calculations through
 * features/calculations, the data health through features/data-health.
 */
export interface PackPeriod {
  /** First and last day (UTC, YYYY-MM-DD), both included. */
  from: string;
  to: string;
  /** [fromInstant, toInstant): the days' instants. */
  fromInstant: Date;
  toInstant: Date;
}

export interface ShipParticulars {
  id: string;
  name: string;
  imo: string | null;
  organization: string;
  scrubberSystemType: string | null;
  numberOfScrubbers: number | null;
  systemManufacturer: string | null;
  totalEffectKw: number | null;
  startDate: Date | null;
  dataFrom: Date | null;
  dataTo: Date | null;
  dataSources: { name: string; reader: string; measureFrequencySeconds: number; primary: boolean }[];
}

export interface Kpi {
  label: string;
  value: string;
  explanation: string;
}

export interface ChannelHealthOfPeriod {
  dataSource: string;
  channel: string;
  source: string;
  /** Share (0–1) of the expected samples present over the period; null when none were expected. */
  coverage: number | null;
  samples: number;
  expectedSamples: number;
  flags: HealthFlagKind[];
  /** Flagged intervals over the period (any flag). */
  intervalCount: number;
  lastValueOn: Date | null;
}

export interface DataHealthOfPeriod {
  status: HealthStatus;
  channels: ChannelHealthOfPeriod[];
  /** Coverage of the mapped channels per month (the samples present of those expected). */
  months: { month: string; coverage: number | null }[];
}

export interface PackContent {
  ship: ShipParticulars;
  period: PackPeriod;
  kpis: Kpi[];
  ratio: { values: ChartPoint[]; limit: ChartPoint[] };
  ph: { values: ChartPoint[]; limit: ChartPoint[] };
  events: ComplianceEvent[];
  /** Each event's flag/port State report: its state, current revision and the sent PDF's SHA-256 (report.ts). */
  reports: Map<string, EventReportStatus>;
  recordBook: { entries: RecordBookEntryView[]; verification: VerifyResult };
  calculations: CalculationInForce[];
  dataHealth: DataHealthOfPeriod;
}

/** Reports of `progress` as each part is read (0 to 1). */
export type Progress = (share: number, stage: string) => Promise<void>;

export async function shipParticulars(db: Kysely<Database>, facilityId: string): Promise<ShipParticulars> {
  const ship = await db
    .selectFrom('facilities as f')
    .innerJoin('organizations as o', 'o.id', 'f.primary_organization_id')
    .select([
      'f.id',
      'f.name',
      'f.imo',
      'o.name as organization',
      'f.scrubber_system_type',
      'f.number_of_scrubbers',
      'f.system_manufacturer',
      'f.total_effect_kw',
      'f.start_date',
      'f.data_timestamp_min',
      'f.data_timestamp_max',
    ])
    .where('f.id', '=', facilityId)
    .executeTakeFirstOrThrow();
  const sources = await db
    .selectFrom('facility_data_sources')
    .select(['name', 'reader_id', 'measure_frequency_seconds', 'is_primary'])
    .where('facility_id', '=', facilityId)
    .orderBy('is_primary', 'desc')
    .orderBy('name')
    .execute();
  const date = (d: Date | string | null) => (d === null ? null : new Date(d));
  return {
    id: ship.id,
    name: ship.name,
    imo: ship.imo,
    organization: ship.organization,
    scrubberSystemType: ship.scrubber_system_type,
    numberOfScrubbers: ship.number_of_scrubbers,
    systemManufacturer: ship.system_manufacturer,
    totalEffectKw: ship.total_effect_kw,
    startDate: date(ship.start_date),
    dataFrom: date(ship.data_timestamp_min),
    dataTo: date(ship.data_timestamp_max),
    dataSources: sources.map((s) => ({
      name: s.name,
      reader: s.reader_id,
      measureFrequencySeconds: s.measure_frequency_seconds,
      primary: s.is_primary,
    })),
  };
}

/** The KPIs the pack states, each as a ship report's field of the dashboard (report code, field name). */
const KPI_FIELDS: { label: string; report: string; field: string; explanation: string }[] = [
  {
    label: 'MARPOL compliance',
    report: REPORT_CODES.shipMarpolCompliance,
    field: 'ActualAverage',
    explanation: 'Share of the required time within the SO2/CO2 limit of the area, average of the hours',
  },
  {
    label: 'Operational availability',
    report: REPORT_CODES.shipOperationalAvailability,
    field: 'ActualAverage',
    explanation: 'Minutes the scrubber ran of the minutes it was required, average of the hours',
  },
  {
    label: 'SO2/CO2 ratio',
    report: REPORT_CODES.shipSo2Co2Ratio,
    field: 'ActualAverage',
    explanation: 'Average ratio at the scrubber outlet (limit 4.3 in an ECA, 21.7 outside)',
  },
  {
    label: 'Ratio margin',
    report: REPORT_CODES.shipSo2Co2Ratio,
    field: 'Facility',
    explanation: 'Average distance below the limit, in % of the limit',
  },
  {
    label: 'Washwater compliance',
    report: REPORT_CODES.shipWashwaterCompliance,
    field: 'ActualAverage',
    explanation:
      'Share of the hours with discharge in which every discharging minute met pH, PAH and turbidity',
  },
  {
    label: 'Lowest discharge pH',
    report: REPORT_CODES.shipWashwaterCriteria,
    field: 'PhWorst',
    explanation: 'Limit 6.5, or the inlet pH minus 2 during manoeuvring and transit',
  },
  {
    label: 'Highest PAH above inlet (µg/L)',
    report: REPORT_CODES.shipWashwaterCriteria,
    field: 'PahWorst',
    explanation: 'Limit 50 x 45 / F µg/L at a washwater flow of F t/MWh',
  },
  {
    label: 'Highest turbidity above inlet (NTU)',
    report: REPORT_CODES.shipWashwaterCriteria,
    field: 'TurbidityWorst',
    explanation: 'Limit 25 NTU, as a 15-minute rolling average',
  },
  {
    label: 'Open loop in no-discharge zones',
    report: REPORT_CODES.shipOpenLoopInNoDischargeZone,
    field: 'ActualAverage',
    explanation: 'Hours of open-loop discharge inside zones that ban it',
  },
  {
    label: 'SFOC impact',
    report: REPORT_CODES.shipSfocImpact,
    field: 'ActualAverage',
    explanation: 'Fuel burnt to power the scrubber, in % of the fuel to the engines it serves',
  },
  {
    label: 'Total CO2 emission',
    report: REPORT_CODES.shipTotalCo2Emission,
    field: 'ActualAverage',
    explanation: 'From the fuel to the engines and to power the scrubber',
  },
  {
    label: 'Extra removal of sulfur',
    report: REPORT_CODES.shipExtraRemovalOfSulfur,
    field: 'ActualAverage',
    explanation: 'Sulfur removed beyond what the area requires',
  },
];

const seriesPoints = (value: ReportFieldValue['value'] | undefined): ChartPoint[] =>
  Array.isArray(value)
    ? value.flatMap((p) =>
        'timestamp' in p && typeof p.timestamp === 'string'
          ? [{ t: Date.parse(p.timestamp), value: typeof p.value === 'number' ? p.value : null }]
          : [],
      )
    : [];

/**
 * The KPIs of the period and the daily series of the charts, through the reports' data assembly with the
 * dashboards' rules (daily values: the roll-up, as the ship dashboard shows periods over 3 months).
 */
export async function periodKpis(
  db: Kysely<Database>,
  facilityId: string,
  period: PackPeriod,
): Promise<Pick<PackContent, 'kpis' | 'ratio' | 'ph'>> {
  const { sourceOf } = await reportFieldValueSources(db);
  const codes = [
    ...new Set([
      ...KPI_FIELDS.map((k) => k.report),
      REPORT_CODES.shipSo2Co2Ratio,
      REPORT_CODES.shipWashwaterCriteria,
    ]),
  ];
  const data = new Map<string, Record<string, ReportFieldValue>>();
  for (const code of codes) {
    const report = await findReport(db, code);
    if (!report) continue;
    const fields = await reportFields(db, code);
    const answer = await reportData(db, {
      report: { id: report.id, target: report.target, information: null },
      fields,
      sourceOf,
      facilityId,
      fleet: [facilityId],
      from: period.fromInstant,
      to: new Date(period.toInstant.getTime() - 1),
      duration: 'daily',
    });
    data.set(code, answer.fields);
  }
  const kpis = KPI_FIELDS.map((k) => {
    const field = data.get(k.report)?.[k.field];
    const value = typeof field?.value === 'number' ? field.value : null;
    return {
      label: k.label,
      value: formatByFormat(value, field?.format ?? null),
      explanation: k.explanation,
    };
  });
  const ratio = data.get(REPORT_CODES.shipSo2Co2Ratio);
  const ph = data.get(REPORT_CODES.shipWashwaterCriteria);
  return {
    kpis,
    ratio: { values: seriesPoints(ratio?.Values?.value), limit: seriesPoints(ratio?.Limit?.value) },
    ph: { values: seriesPoints(ph?.PhValues?.value), limit: seriesPoints(ph?.PhLimit?.value) },
  };
}

/**
 * The health of the ship's mapped channels over the period (features/data-health, the flag rules of the health
 * view), a month at a time so that a year's samples are never read at once: samples and expected samples add up,
 * flags and intervals are those of any month, the last value the latest.
 */
export async function periodDataHealth(
  db: Kysely<Database>,
  facility: { id: string; primary_organization_id: string },
  period: PackPeriod,
  progress?: (share: number) => Promise<void>,
): Promise<DataHealthOfPeriod> {
  const chunks: { from: Date; to: Date; month: string }[] = [];
  let at = period.fromInstant.getTime();
  const end = period.toInstant.getTime();
  while (at < end) {
    const d = new Date(at);
    const next = Math.min(end, Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));
    chunks.push({ from: new Date(at), to: new Date(next - 1), month: d.toISOString().slice(0, 7) });
    at = next;
  }
  const channels = new Map<string, ChannelHealthOfPeriod>();
  const months: DataHealthOfPeriod['months'] = [];
  let anyData = false;
  let anyChannel = false;
  for (const [i, chunk] of chunks.entries()) {
    const health = await computeDataHealth(db, facility, chunk, Date.now());
    if (health.latestDataOn) anyData = true;
    let samples = 0;
    let expected = 0;
    for (const c of health.channels) {
      anyChannel = true;
      samples += c.samples;
      expected += c.expectedSamples;
      const key = c.channelId;
      const entry = channels.get(key) ?? {
        dataSource: c.dataSourceName,
        channel: c.name,
        source: c.source,
        coverage: null,
        samples: 0,
        expectedSamples: 0,
        flags: [],
        intervalCount: 0,
        lastValueOn: null,
      };
      entry.samples += c.samples;
      entry.expectedSamples += c.expectedSamples;
      for (const flag of c.flags) if (!entry.flags.includes(flag)) entry.flags.push(flag);
      entry.intervalCount += c.intervalCount;
      if (c.lastValueOn && (!entry.lastValueOn || Date.parse(c.lastValueOn) > entry.lastValueOn.getTime()))
        entry.lastValueOn = new Date(c.lastValueOn);
      channels.set(key, entry);
    }
    months.push({ month: chunk.month, coverage: expected > 0 ? samples / expected : null });
    await progress?.((i + 1) / chunks.length);
  }
  const list = [...channels.values()].map((c) => ({
    ...c,
    flags: HEALTH_FLAG_KINDS.filter((k) => c.flags.includes(k)),
    coverage: c.expectedSamples > 0 ? c.samples / c.expectedSamples : null,
  }));
  const status: HealthStatus = !anyChannel
    ? 'noChannels'
    : !anyData
      ? 'noData'
      : list.some((c) => c.flags.length > 0)
        ? 'flagged'
        : 'ok';
  return { status, channels: list, months };
}

/** Everything the PDF says of the ship and the period, read part by part with the progress of each. */
export async function assemblePackContent(
  db: Kysely<Database>,
  facilityId: string,
  period: PackPeriod,
  progress: Progress,
): Promise<PackContent> {
  await progress(0, 'Ship particulars');
  const ship = await shipParticulars(db, facilityId);
  const facility = await db
    .selectFrom('facilities')
    .select(['id', 'primary_organization_id'])
    .where('id', '=', facilityId)
    .executeTakeFirstOrThrow();
  await progress(0.05, 'KPIs and charts');
  const kpis = await periodKpis(db, facilityId, period);
  await progress(0.2, 'Compliance events');
  const events = await shipEventsInPeriod(db, facilityId, period.fromInstant, period.toInstant);
  const reports = await reportStatusOf(
    db,
    events.map((e) => e.id),
  );
  await progress(0.3, 'Record book and its verification');
  // The entries that occurred in the period, and those recorded later about its events (acknowledged, closed,
  // report sent after the period ended).
  const eventIds = new Set(events.map((e) => e.id));
  const from = period.fromInstant.getTime();
  const to = period.toInstant.getTime();
  const [book, verification] = await Promise.all([
    readRecordBook(db, facilityId),
    verifyRecordBook(db, facilityId),
  ]);
  const entries = book.filter(
    (e) =>
      (e.occurredOn.getTime() >= from && e.occurredOn.getTime() < to) ||
      (e.eventId !== null && eventIds.has(e.eventId)),
  );
  await progress(0.4, 'Calculations in force');
  const calculations = await calculationsInForce(db, facilityId, period.fromInstant, period.toInstant);
  await progress(0.45, 'Data health and coverage');
  const dataHealth = await periodDataHealth(db, facility, period, (share) =>
    progress(0.45 + 0.55 * share, 'Data health and coverage'),
  );
  return {
    ship,
    period,
    ...kpis,
    events,
    reports,
    recordBook: { entries: entries.map(presentEntry), verification },
    calculations,
    dataHealth,
  };
}
