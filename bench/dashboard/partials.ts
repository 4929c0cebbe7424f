/**
 * The stage the fleet dashboard's first call after new data spends most in: the partial sums of every ship and value
 * source over a period, read from the database. Before issue 34 (whole days from report_values_daily, the edge hours
 * of every ship-field pair probed in report_values) against now (storage readReportPartials: years, months and days
 * from the roll-ups, no probe for whole-day periods), on a database the dashboard bench filled.
 *
 * Run: DATABASE_URL=postgres://postgres@127.0.0.1:5432/<db filled by bench/dashboard/run.ts> npx tsx bench/dashboard/partials.ts [--runs 10]
 * Prints a table (ms per read, p50 and max) and fails when the two reads disagree beyond 12 significant digits.
 */
import { cpus, loadavg } from 'node:os';
import { sql } from 'kysely';
import { openDatabase } from '../../apps/api/src/storage/database';
import { readReportPartials } from '../../apps/api/src/storage';
import { reportFieldValueSources } from '../../apps/api/src/features/reports/sources';

const DAY = 86_400_000;
const at = process.argv.indexOf('--runs');
const RUNS = at > 0 ? Number(process.argv[at + 1]) : 10;
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('Set DATABASE_URL to a database the dashboard bench filled');

const database = await openDatabase({ databaseUrl, dataDir: 'memory://', poolSize: 2 });
const { db } = database;
const ships = (await db.selectFrom('facilities').select('id').execute()).map((s) => s.id);
const fields = (await reportFieldValueSources(db)).computed;

/** The read before issue 34 (storage/report-values-daily.ts as it was). */
async function before(from: Date, to: Date) {
  const first = Math.ceil(from.getTime() / DAY) * DAY;
  const afterLast = Math.floor((to.getTime() + 1) / DAY) * DAY;
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const { rows } = await sql<{ facility_id: string; report_field_id: string; s: number }>`
    select facility_id, report_field_id, coalesce(sum(s order by t), 0) as s, sum(c)::int as c, min(mn) as mn, max(mx) as mx, max(latest) as latest
    from (
      select facility_id, report_field_id, value as s, (value is not null)::int as c, value as mn, value as mx,
             case when value is not null then extract(epoch from span_start) * 1000 end as latest,
             extract(epoch from span_start) * 1000 as t
      from report_values
      where facility_id = any(${ships}::uuid[]) and report_field_id = any(${fields}::uuid[])
        and ((span_start >= ${from} and span_start < ${new Date(first)}) or (span_start >= ${new Date(afterLast)} and span_start <= ${to}))
      union all
      select facility_id, report_field_id, value_sum, value_count, value_min, value_max,
             case when value_count > 0 then extract(epoch from day::timestamp) * 1000 end,
             extract(epoch from day::timestamp) * 1000
      from report_values_daily
      where facility_id = any(${ships}::uuid[]) and report_field_id = any(${fields}::uuid[])
        and day >= ${day(first)}::date and day < ${day(afterLast)}::date
    ) x
    group by facility_id, report_field_id`.execute(db);
  return new Map(rows.map((r) => [`${r.facility_id}|${r.report_field_id}`, Number(r.s)]));
}

const after = async (from: Date, to: Date) =>
  new Map([...(await readReportPartials(db, ships, fields, from, to))].map(([k, p]) => [k, p.sum]));

const time = async (read: () => Promise<Map<string, number>>) => {
  const ms: number[] = [];
  let last = new Map<string, number>();
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    last = await read();
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  return { p50: ms[Math.floor(ms.length / 2)]!, max: ms[ms.length - 1]!, result: last };
};

const periods = [
  ['a year (2025)', '2025-01-01T00:00:00.000Z', '2025-12-31T23:59:59.999Z'],
  ['a month (November 2025)', '2025-11-01T00:00:00.000Z', '2025-11-30T23:59:59.999Z'],
  ['91 days (2025-09-01 .. 2025-11-30)', '2025-09-01T00:00:00.000Z', '2025-11-30T23:59:59.999Z'],
] as const;
console.log(
  `${ships.length} ships × ${fields.length} value sources; ${cpus().length} × ${cpus()[0]?.model.trim()}, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ')}; ${RUNS} reads each, ${new Date().toISOString()}`,
);
console.log(
  '\n| period | before: daily rows + edge probes, p50 ms | max | now: roll-ups, p50 ms | max | pairs |',
);
console.log('|---|---|---|---|---|---|');
const problems: string[] = [];
for (const [name, from, to] of periods) {
  const b = await time(() => before(new Date(from), new Date(to)));
  const a = await time(() => after(new Date(from), new Date(to)));
  for (const [k, v] of b.result)
    if (Number(v.toPrecision(12)) !== Number((a.result.get(k) ?? NaN).toPrecision(12)))
      problems.push(`${name} ${k}: ${v} before, ${a.result.get(k)} now`);
  console.log(
    `| ${name} | ${b.p50.toFixed(1)} | ${b.max.toFixed(1)} | ${a.p50.toFixed(1)} | ${a.max.toFixed(1)} | ${a.result.size} |`,
  );
}
console.log(
  `\nLoad average at the end: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ')}.`,
);
await database.close();
if (problems.length) {
  console.error(`FAILED:\n${problems.slice(0, 10).join('\n')}`);
  process.exit(1);
}
