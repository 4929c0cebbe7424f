import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { DAY_MS, dayText } from './series';

/**
 * Recomputes report_values_daily of a ship for the UTC days touching [from, to], from report_values:
 * per field and day the sum, count, min and max of the non-null hourly values and the number of spans.
 * Days without any span lose their roll-up row. The sum is taken in time order: a sum of doubles depends on its
 * order, and the order a scan meets the rows in depends on how they lie on disk. Step "roll up" of the execution engine (after it wrote report
 * values, inside its transaction), and after report values are deleted. Given a transaction, it runs in it;
 * given the database, in a transaction of its own.
 */
export async function refreshDailyRollup(
  db: Kysely<Database>,
  facilityId: string,
  reportFieldIds: string[] | 'all',
  from: Date,
  to: Date,
): Promise<number> {
  if (reportFieldIds !== 'all' && reportFieldIds.length === 0) return 0;
  const firstDay = Math.floor(from.getTime() / DAY_MS) * DAY_MS;
  const afterLastDay = Math.floor(to.getTime() / DAY_MS) * DAY_MS + DAY_MS;
  const fieldFilter =
    reportFieldIds === 'all' ? sql`true` : sql`report_field_id = any(${reportFieldIds}::uuid[])`;
  const rollUp = async (trx: Kysely<Database>) => {
    await sql`
      delete from report_values_daily
      where facility_id = ${facilityId} and ${fieldFilter}
        and day >= ${dayText(firstDay)}::date and day < ${dayText(afterLastDay)}::date
    `.execute(trx);
    const result = await sql`
      insert into report_values_daily (facility_id, report_field_id, day, value_sum, value_count, value_min, value_max, span_count)
      select facility_id, report_field_id, (span_start at time zone 'UTC')::date,
             coalesce(sum(value order by span_start), 0), count(value), min(value), max(value), count(*)
      from report_values
      where facility_id = ${facilityId} and ${fieldFilter}
        and span_start >= ${new Date(firstDay)} and span_start < ${new Date(afterLastDay)}
      group by facility_id, report_field_id, (span_start at time zone 'UTC')::date
    `.execute(trx);
    return Number(result.numAffectedRows ?? 0);
  };
  // Its statements move the reports version (a trigger, migration 0012): cached answers of every process are stale.
  return db.isTransaction ? rollUp(db) : db.transaction().execute(rollUp);
}
