import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { refreshDailyRollup } from '../executions/rollup';
import { lockShipValues } from '../executions/store';

/**
 * Deletes a ship's report values of spans starting in [from, to] and rolls the days up again; returns how many. The
 * ship's only writer of derived values until the transaction ends (lockShipValues), like an execution's store.
 */
export async function deleteReportValues(
  trx: Transaction<Database>,
  facilityId: string,
  from: Date,
  to: Date,
): Promise<number> {
  await lockShipValues(trx, facilityId);
  const result = await trx
    .deleteFrom('report_values')
    .where('facility_id', '=', facilityId)
    .where('span_start', '>=', from)
    .where('span_start', '<=', to)
    .executeTakeFirst();
  await refreshDailyRollup(trx, facilityId, 'all', from, to);
  return Number(result.numDeletedRows);
}
