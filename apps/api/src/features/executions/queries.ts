import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { Caller } from '../access/caller';
import { facilityVisibleTo } from '../access/policy';

/** Running and queued executions of the ships the caller sees, oldest request first. */
export function runningExecutions(db: Kysely<Database>, caller: Caller) {
  return db
    .selectFrom('executions as e')
    .select(['e.id', 'e.facility_id', 'e.state', 'e.started_on', 'e.requested_on'])
    .where('e.state', 'in', ['running', 'queued'])
    .where(facilityVisibleTo(db, caller, sql.ref('e.facility_id')))
    .orderBy('e.requested_on')
    .execute();
}

/** Per ship the caller sees, its latest finished or failed execution when that one failed, latest first. */
export function lastFailedExecutions(db: Kysely<Database>, caller: Caller) {
  return db
    .selectFrom((eb) =>
      eb
        .selectFrom('executions as e')
        .select(['e.id', 'e.facility_id', 'e.state', 'e.started_on', 'e.finished_on', 'e.error'])
        .select(
          sql<number>`row_number() over (partition by e.facility_id order by e.requested_on desc, e.id desc)`.as(
            'rank',
          ),
        )
        .where('e.state', 'in', ['done', 'failed'])
        .where(facilityVisibleTo(db, caller, sql.ref('e.facility_id')))
        .as('last'),
    )
    .selectAll()
    .where('last.rank', '=', 1)
    .where('last.state', '=', 'failed')
    .orderBy('last.finished_on', (ob) => ob.desc().nullsLast())
    .execute();
}
