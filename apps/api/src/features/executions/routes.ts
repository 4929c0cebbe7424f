import type { FastifyInstance } from 'fastify';
import { authenticatedRoutes } from '../access/authenticated';
import { sql } from 'kysely';
import { executionStatusSchema, type ExecutionStatus } from '@portal/contracts/executions';
import { facilityVisibleTo } from '../access/policy';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/**
 * Processing status for the ship list and the files screen: running and queued executions of the caller's ships,
 * and per ship the last execution when it failed (until a later one succeeds), to anyone who sees the ship, i.e. may
 * upload to it and run it again.
 */
export async function executionStatusRoutes(app: FastifyInstance) {
  const routes = authenticatedRoutes(app);
  const { db } = app;

  routes.get(
    '/api/algorithm/calculations',
    { schema: { tags: ['executions'], response: { 200: executionStatusSchema } } },
    async (request): Promise<ExecutionStatus> => {
      const { caller } = request;
      const running = await db
        .selectFrom('executions as e')
        .select(['e.id', 'e.facility_id', 'e.state', 'e.started_on', 'e.requested_on'])
        .where('e.state', 'in', ['running', 'queued'])
        .where(facilityVisibleTo(db, caller, sql.ref('e.facility_id')))
        .orderBy('e.requested_on')
        .execute();
      const status: ExecutionStatus = {
        items: running.map((e) => ({
          id: e.id,
          facilityId: e.facility_id,
          startedOn: iso(e.started_on ?? e.requested_on)!,
          state: e.state as 'queued' | 'running',
        })),
      };
      // The latest finished or failed execution of each ship; only a failed one is reported.
      const failed = await db
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
      status.failed = failed.map((e) => ({
        id: e.id,
        facilityId: e.facility_id,
        startedOn: iso(e.started_on),
        finishedOn: iso(e.finished_on),
        error: e.error,
      }));
      return status;
    },
  );
}
