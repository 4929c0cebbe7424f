import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../src/db/schema';
import { seedDemoData } from '../src/features/datasources/demo';
import type { ImportTarget } from '../src/features/files/import';
import { seedDefaultMeasurementCalculations } from '../src/features/calculations/seed';

/** Demo-like data for execution tests: the demo ships' logger files of `days` days before `until`, imported through the upload service, with the default calculations approved. */
export const UNTIL = new Date('2025-03-10T00:00:00.000Z');
export const DAY = 86_400_000;

export async function prepareShips(
  database: ImportTarget,
  facilityIds: Record<string, string>,
  days: number,
  until = UNTIL,
): Promise<void> {
  const result = await seedDemoData(database, { facilityIds, days, until });
  if (result.errors.length) throw new Error(result.errors.join('\n'));
  for (const id of Object.values(facilityIds))
    await seedDefaultMeasurementCalculations(database.db, id, new Date('2000-01-01T00:00:00.000Z'));
}

/** Everything stored for a ship, as comparable text: measurement chunks (hashed), report values and events. */
export async function snapshot(db: Kysely<Database>, facilityId: string) {
  const measurement = await db
    .selectFrom('measurement_values')
    .select(['measurement_field_id', 'day', 'row_count', 'timestamps', 'values'])
    .where('facility_id', '=', facilityId)
    .orderBy('measurement_field_id')
    .orderBy('day')
    .execute();
  const report = await db
    .selectFrom('report_values')
    .select(['report_field_id', 'span_start', 'value'])
    .where('facility_id', '=', facilityId)
    .orderBy('report_field_id')
    .orderBy('span_start')
    .execute();
  const daily = await db
    .selectFrom('report_values_daily')
    .selectAll()
    .where('facility_id', '=', facilityId)
    .orderBy('report_field_id')
    .orderBy('day')
    .execute();
  const events = await db
    .selectFrom('compliance_events')
    .select(['type', 'start_on', 'end_on', 'ongoing', 'classification', 'report_required', 'worst_value'])
    .where('facility_id', '=', facilityId)
    .orderBy('start_on')
    .orderBy('type')
    .execute();
  const hash = (b: Uint8Array) => createHash('sha1').update(b).digest('hex');
  return {
    measurement: measurement.map(
      (m) =>
        `${m.measurement_field_id} ${new Date(m.day).toISOString().slice(0, 10)} ${m.row_count} ${hash(m.timestamps)} ${hash(m.values)}`,
    ),
    report: report.map((r) => `${r.report_field_id} ${new Date(r.span_start).toISOString()} ${r.value}`),
    daily: daily.map(
      (d) =>
        `${d.report_field_id} ${new Date(d.day).toISOString().slice(0, 10)} ${d.value_sum} ${d.value_count} ${d.span_count}`,
    ),
    events: events.map(
      (e) =>
        `${e.type} ${new Date(e.start_on).toISOString()} ${new Date(e.end_on).toISOString()} ${e.ongoing} ${e.classification} ${e.report_required} ${e.worst_value}`,
    ),
  };
}

/** Waits until the executions are done or failed. */
export async function waitForExecutions(db: Kysely<Database>, ids: string[], timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await db.selectFrom('executions').selectAll().where('id', 'in', ids).execute();
    if (rows.length === ids.length && rows.every((r) => r.state === 'done' || r.state === 'failed'))
      return rows;
    if (Date.now() > deadline)
      throw new Error(
        `executions not finished: ${rows.map((r) => `${r.id} ${r.state} ${r.error ?? ''}`).join(', ')}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export const FAST_QUEUE = {
  QUEUE_POLLING_SECONDS: 0.5,
  QUEUE_RETRY_DELAY_SECONDS: 1,
  QUEUE_HEARTBEAT_SECONDS: 10,
  QUEUE_SUPERVISE_SECONDS: 2,
};
