import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { DEFAULT_REPORT_KPIS } from '@portal/formula';
import type { Database } from '../../apps/api/src/db/schema';
import { reportFieldValueSources } from '../../apps/api/src/features/reports/sources';

/**
 * Believable hourly values of every default report KPI for the dashboard and load benchmarks (a fleet-year is too
 * much to run through the real pipeline for each run), made in JavaScript and written with COPY
 * (bench/results/dashboard.md). A value depends on the hour, the field's salt and the ship's number only, so every
 * run fills the same values.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * A pseudo-random number in [0, 1) per hour, field and ship, the same every run. Exact in doubles up to 2^53 (the
 * SQL version it replaces overflowed a 32-bit integer from the 139th ship).
 */
export const syntheticRandom = (salt: number, hour: number, ship: number) =>
  ((hour * 7919 + salt * 104729 + ship * 15485863) % 1000) / 1000;

type Value = (r: (extra?: number) => number, hour: number) => number | null;

/** Per default KPI: its value at an hour; `r()` is the hour's random number (r(k) another one). */
export const SYNTHETIC_REPORT_VALUES: Record<string, Value> = {
  MarpolCompliance: (r) => (r() > 0.1 ? 100 : 60 + r() * 300),
  OperationalAvailability: (r) => (r() > 0.15 ? 100 : r() > 0.08 ? 110 : 80 + r() * 100),
  SO2CO2Ratio: (r) => 1 + r() * 5,
  SO2CO2Limit: (_, hour) => (hour % 48 < 12 ? 4.3 : 21.7),
  RatioMargin: (r) => 20 + r() * 60,
  SfocImpact: (r) => 1.5 + r() * 1.5,
  TotalCO2Emission: (r) => 2 + r() * 3,
  ExtraRemovalOfSulfur: (r) => 0.01 + r() * 0.02,
  CO2Reduction: (r) => 0.05 + r() * 0.05,
  // Washwater: no value in a fifth of the hours (not discharging); a breach now and then.
  WashwaterCompliance: (r) => (r() < 0.2 ? null : r() < 0.25 ? 0 : 100),
  WashwaterPh: (r) => 6.3 + r() * 1.2,
  WashwaterPhLimit: (_, hour) => (hour % 24 < 2 ? 5.9 : 6.5),
  WashwaterPahAboveInlet: (r) => 5 + r() * 30,
  WashwaterPahLimit: (r) => 40 + r() * 30,
  WashwaterTurbidityAboveInlet: (r) => 2 + r() * 15,
  WashwaterTurbidityLimit: () => 25,
  OpenLoopInNoDischargeZoneHours: (r) => (r() < 0.05 ? r() * 20 : 0),
};

/** The synthetic values of a default KPI; an error naming it when this file has none (a KPI added since). */
function syntheticValue(key: string): Value {
  const value = SYNTHETIC_REPORT_VALUES[key];
  if (!value)
    throw new Error(
      `No synthetic values for the default KPI ${key}: add them to bench/shared/synthetic-values.ts`,
    );
  return value;
}

/** The value of a field (its salt and KPI) of ship number `ship` at an hour (epoch ms); null in about 3 % of hours. */
export function syntheticHour(value: Value, salt: number, ship: number, t: number): number | null {
  const hour = Math.floor(t / HOUR);
  if (syntheticRandom(salt + 50, hour, ship) < 0.03) return null;
  return value((extra = 0) => syntheticRandom(salt + extra, hour, ship), hour);
}

export interface FillOptions {
  /** The first this many ships get their hourly rows too; the others only the roll-ups (default: every ship). */
  hourlyShips?: number;
  /** Where COPY writes (default DATABASE_URL). */
  databaseUrl?: string;
}

const text = (v: number | null) => (v === null ? '\\N' : String(v));

/**
 * Fills a period of hourly report values for every computed default report field of every ship: the hourly rows
 * (report_values) of the first `hourlyShips` ships, the daily roll-up of every ship (computed here from the same
 * hours, as refreshDailyRollup would: the sum in time order), written with COPY; then the monthly and yearly roll-ups
 * from the daily rows in SQL, as migration 0036 does, and analyzes the tables. Logs progress every 100 ships.
 * Returns the seconds spent and the rows written.
 */
export async function fillSyntheticReportValues(
  db: Kysely<Database>,
  ships: readonly { id: string }[],
  period: { from: string; to: string },
  options: FillOptions = {},
): Promise<{ seconds: number; hourlyRows: number; dailyRows: number }> {
  const { computed } = await reportFieldValueSources(db);
  const calcs = await db
    .selectFrom('report_field_calculations')
    .select(['report_field_id', 'transform_algorithm'])
    .where('report_field_id', 'in', computed)
    .execute();
  const kpiOf = (fieldId: string) => {
    const algorithm = calcs.find((c) => c.report_field_id === fieldId)?.transform_algorithm;
    const kpi = DEFAULT_REPORT_KPIS.find((k) => k.transformAlgorithm === algorithm);
    if (!kpi) throw new Error(`The report field ${fieldId} is computed by no default KPI's calculation`);
    return kpi.key;
  };
  const fields = computed.map((fieldId, salt) => ({ fieldId, salt, value: syntheticValue(kpiOf(fieldId)) }));
  const hourlyShips = options.hourlyShips ?? ships.length;
  const from = Math.ceil(new Date(period.from).getTime() / HOUR) * HOUR;
  const to = new Date(period.to).getTime();
  const started = performance.now();
  let hourlyRows = 0;
  let dailyRows = 0;

  const client = new pg.Client({ connectionString: options.databaseUrl ?? process.env.DATABASE_URL });
  await client.connect();
  try {
    /** Ships [first, end)'s rows as COPY text: hourly lines (report_values) or daily ones (report_values_daily). */
    function* lines(first: number, end: number, kind: 'hourly' | 'daily'): Generator<string> {
      for (let i = first; i < end; i++) {
        const ship = ships[i]!.id;
        for (const { fieldId, salt, value } of fields) {
          for (let day = Math.floor(from / DAY) * DAY; day <= to; day += DAY) {
            let sum = 0;
            let count = 0;
            let min: number | null = null;
            let max: number | null = null;
            let spans = 0;
            let hours = '';
            for (let t = Math.max(day, from); t < day + DAY && t <= to; t += HOUR) {
              const v = syntheticHour(value, salt, i, t);
              spans++;
              if (kind === 'hourly') {
                hours += `${ship}\t${fieldId}\t${new Date(t).toISOString()}\t${text(v)}\n`;
                hourlyRows++;
              } else if (v !== null) {
                sum += v;
                count++;
                min = min === null || v < min ? v : min;
                max = max === null || v > max ? v : max;
              }
            }
            if (spans === 0) continue;
            if (kind === 'hourly') yield hours;
            else {
              dailyRows++;
              const d = new Date(day).toISOString().slice(0, 10);
              yield `${ship}\t${fieldId}\t${d}\t${sum}\t${count}\t${text(min)}\t${text(max)}\t${spans}\n`;
            }
          }
        }
      }
    }
    const copy = async (statement: string, rows: Iterable<string>) =>
      pipeline(Readable.from(rows), client.query(copyFrom(statement)));
    const batch = 100;
    for (let at = 0; at < ships.length; at += batch) {
      const end = Math.min(ships.length, at + batch);
      if (at < hourlyShips)
        await copy(
          'COPY report_values (facility_id, report_field_id, span_start, value) FROM STDIN',
          lines(at, Math.min(end, hourlyShips), 'hourly'),
        );
      await copy(
        'COPY report_values_daily (facility_id, report_field_id, day, value_sum, value_count, value_min, value_max, span_count) FROM STDIN',
        lines(at, end, 'daily'),
      );
      console.log(
        `filled ${end}/${ships.length} ships (${((performance.now() - started) / 1000).toFixed(0)} s)`,
      );
    }
  } finally {
    await client.end();
  }
  // The monthly and yearly roll-ups from the daily rows, as migration 0036 (and the engine's roll-up step) make them.
  await sql`
    insert into report_values_monthly
      select facility_id, report_field_id, date_trunc('month', day)::date, sum(value_sum order by day),
             sum(value_count), min(value_min), max(value_max), sum(span_count),
             max(case when value_count > 0 then day end)
      from report_values_daily group by 1, 2, 3`.execute(db);
  await sql`
    insert into report_values_yearly
      select facility_id, report_field_id, date_trunc('year', month)::date, sum(value_sum order by month),
             sum(value_count), min(value_min), max(value_max), sum(span_count), max(latest_day)
      from report_values_monthly group by 1, 2, 3`.execute(db);
  await sql`analyze report_values; analyze report_values_daily; analyze report_values_monthly; analyze report_values_yearly`.execute(
    db,
  );
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `report values: ${seconds.toFixed(0)} s (${hourlyRows.toLocaleString('en-US')} hourly rows, ${dailyRows.toLocaleString('en-US')} daily)`,
  );
  return { seconds, hourlyRows, dailyRows };
}
