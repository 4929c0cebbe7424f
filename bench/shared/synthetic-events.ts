import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { sql, type Insertable, type Kysely } from 'kysely';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { DEFAULT_EVENT_RULES } from '@portal/contracts/events';
import type { Database } from '../../apps/api/src/db/schema';

/**
 * Believable compliance events and CII year sums for the dashboard and events benchmarks (the engine derives the
 * events and the carbon ledger the sums; a fleet-year is too much to run through them for each run). Deterministic:
 * every run fills the same rows.
 */

const DAY = 86_400_000;

/** A small deterministic random source. */
export function syntheticRandomSource(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export interface SyntheticEvent {
  facility_id: string;
  type: string;
  start_on: Date;
  end_on: Date;
  classification: string | null;
  report_required: boolean;
  rules: string;
  start_latitude: number;
  start_longitude: number;
  acknowledged_on: Date | null;
  closed_on: Date | null;
}

/**
 * A ship-year of events from `yearFrom` (epoch ms) with the mix the demo fleet's year shows: ECA entries and exits,
 * transients at departures and load changes, a few malfunctions, data gaps.
 */
export function syntheticShipYearEvents(
  facilityId: string,
  seed: number,
  yearFrom: number,
): SyntheticEvent[] {
  const rnd = syntheticRandomSource(seed);
  const rows: SyntheticEvent[] = [];
  const add = (type: string, start: number, minutes: number, classification: string | null) =>
    rows.push({
      facility_id: facilityId,
      type,
      start_on: new Date(start),
      end_on: new Date(start + minutes * 60_000),
      classification,
      report_required: classification === 'repeated' || (classification === 'malfunction' && minutes > 60),
      rules: JSON.stringify(DEFAULT_EVENT_RULES),
      start_latitude: 50 + rnd() * 5,
      start_longitude: rnd() * 10,
      acknowledged_on: rnd() < 0.3 ? new Date(start + DAY) : null,
      closed_on: rnd() < 0.2 ? new Date(start + 2 * DAY) : null,
    });
  for (let day = 0; day < 365; day++) {
    const t = yearFrom + day * DAY;
    if (day % 4 === 0) add('eca-entry', t + rnd() * DAY, 0, null);
    if (day % 4 === 2) add('eca-exit', t + rnd() * DAY, 0, null);
    if (rnd() < 0.35) add('scrubber-off', t + rnd() * DAY, 3 + rnd() * 9, 'transient');
    if (rnd() < 0.2)
      add('emission-exceedance', t + rnd() * DAY, 2 + rnd() * 10, rnd() < 0.2 ? 'repeated' : 'transient');
    if (rnd() < 0.02) add('scrubber-off', t + rnd() * DAY, 20 + rnd() * 900, 'malfunction');
    if (rnd() < 0.02) add('emission-exceedance', t + rnd() * DAY, 20 + rnd() * 200, 'malfunction');
    if (rnd() < 0.03) add('data-gap', t + rnd() * DAY, 61 + rnd() * 600, null);
  }
  return rows;
}

const text = (v: unknown) =>
  v === null || v === undefined
    ? '\\N'
    : v instanceof Date
      ? v.toISOString()
      : String(v).replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n');

/**
 * The events of every ship whose start falls in `period`, written with COPY (a ship-year of the mix above per ship,
 * kept to the period), then analyzed. Rows of months without a partition wait in the default one, as the report
 * values of synthetic-values.ts do. Returns the rows written and the seconds.
 */
export async function fillSyntheticEvents(
  db: Kysely<Database>,
  ships: readonly { id: string }[],
  period: { from: string; to: string },
  options: { databaseUrl?: string } = {},
): Promise<{ rows: number; seconds: number }> {
  const started = performance.now();
  const from = new Date(period.from).getTime();
  const to = new Date(period.to).getTime();
  const yearFrom = Date.UTC(new Date(from).getUTCFullYear(), 0, 1);
  const columns = [
    'facility_id',
    'type',
    'start_on',
    'end_on',
    'classification',
    'report_required',
    'rules',
    'start_latitude',
    'start_longitude',
    'acknowledged_on',
    'closed_on',
  ] as const;
  let rows = 0;
  function* lines(): Generator<string> {
    for (const [i, ship] of ships.entries()) {
      let chunk = '';
      for (const event of syntheticShipYearEvents(ship.id, i + 1, yearFrom)) {
        const t = event.start_on.getTime();
        if (t < from || t > to) continue;
        chunk += `${columns.map((c) => text(event[c])).join('\t')}\n`;
        rows++;
      }
      yield chunk;
    }
  }
  const client = new pg.Client({ connectionString: options.databaseUrl ?? process.env.DATABASE_URL });
  await client.connect();
  try {
    await pipeline(
      Readable.from(lines()),
      client.query(copyFrom(`COPY compliance_events (${columns.join(', ')}) FROM STDIN`)),
    );
  } finally {
    await client.end();
  }
  await sql`analyze compliance_events`.execute(db);
  const seconds = (performance.now() - started) / 1000;
  console.log(`events: ${seconds.toFixed(0)} s (${rows.toLocaleString('en-US')} rows)`);
  return { rows, seconds };
}

/**
 * What the CII cards read (features/carbon/reports.ts: ciiForShip, fleetCii): each ship's row of `ledger_years` (the
 * carbon ledger's year sums, storage/ledger-segments.ts) for the year of `period` and the two before (the ship card's
 * ratings of earlier years), with an attained CII of 3-9 gCO2/(t·nm) over the ship's deadweight and days from the
 * period's start to its end (the whole year for the earlier years). Ships without particulars get none.
 */
export async function fillSyntheticCiiYears(
  db: Kysely<Database>,
  ships: readonly { id: string }[],
  period: { from: string; to: string },
): Promise<{ rows: number; seconds: number }> {
  const started = performance.now();
  const from = new Date(period.from);
  const to = new Date(period.to);
  const year = from.getUTCFullYear();
  const particulars = new Map(
    (
      await db
        .selectFrom('facilities')
        .select(['id', 'deadweight_tonnes', 'gross_tonnage'])
        .where('deadweight_tonnes', 'is not', null)
        .execute()
    ).map((p) => [p.id, p]),
  );
  const day = (d: Date) => d.toISOString().slice(0, 10);
  const rows: Insertable<Database['ledger_years']>[] = [];
  for (const [i, ship] of ships.entries()) {
    const p = particulars.get(ship.id);
    if (!p?.deadweight_tonnes) continue;
    const rnd = syntheticRandomSource(10_000 + i);
    for (const y of [year - 2, year - 1, year]) {
      const firstDay = y === year ? from : new Date(Date.UTC(y, 0, 1));
      const lastDay = y === year ? to : new Date(Date.UTC(y, 11, 31));
      const days = Math.max(1, Math.round((lastDay.getTime() - firstDay.getTime()) / DAY));
      const distanceNm = days * (180 + rnd() * 200);
      const attained = 3 + rnd() * 6;
      const co2g = attained * Number(p.deadweight_tonnes) * distanceNm;
      rows.push({
        facility_id: ship.id,
        year: y,
        first_day: day(firstDay),
        last_day: day(lastDay),
        co2_g: co2g,
        distance_nm: distanceNm,
        scrubber_co2_g: co2g * 0.02,
        unknown_fuel_kg: 0,
        recent_co2_g: (co2g * Math.min(90, days)) / days,
        recent_distance_nm: (distanceNm * Math.min(90, days)) / days,
      });
    }
  }
  for (let at = 0; at < rows.length; at += 2000)
    await db
      .insertInto('ledger_years')
      .values(rows.slice(at, at + 2000))
      .execute();
  await sql`analyze ledger_years`.execute(db);
  const seconds = (performance.now() - started) / 1000;
  console.log(`CII year sums: ${seconds.toFixed(1)} s (${rows.length.toLocaleString('en-US')} rows)`);
  return { rows: rows.length, seconds };
}
