import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { monthOf, type Month } from '../db/partitions';
import { conflict } from '../errors';

/**
 * The archived months (`archived_months`, docs/decisions/0125-partitions-and-retention.md): read by the writers of
 * the partitioned series, which refuse to store into an archived month (its rows would land in a default partition
 * and be hidden, or block, when the month is restored). partitions.ts archives and restores.
 */

/** The archived months, oldest first. */
export async function readArchivedMonths(db: Kysely<Database>) {
  return db.selectFrom('archived_months').selectAll().orderBy('month').execute();
}

/** A write into an archived month, refused: restore the month first. */
export function archivedMonthError(month: Month) {
  return conflict(
    `The data of ${month} is archived. Restore the month (Administration, Data retention) before storing data in it.`,
  );
}

/** Refuses a write of the instants from `from` to `to` (both included) when one of their months is archived. */
export async function assertMonthsOnline(db: Kysely<Database>, from: Date, to: Date): Promise<void> {
  if (!(to.getTime() >= from.getTime())) return;
  const archived = await db
    .selectFrom('archived_months')
    .select('month')
    .where('month', '>=', monthOf(from))
    .where('month', '<=', monthOf(to))
    .orderBy('month')
    .executeTakeFirst();
  if (archived) throw archivedMonthError(archived.month);
}
