import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { executionStatusSchema, type ExecutionStatus } from '@portal/contracts/executions';
import { facilityVisibleTo, isSystemAdmin } from '../access/policy';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
const FAILED_LIMIT = 50;

/** Processing status for the ship list: running and queued executions of the caller's ships. */
export async function executionStatusRoutes(app: FastifyInstance) {
  const server = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app;

  server.get(
    '/api/algorithm/calculations',
    { schema: { tags: ['executions'], response: { 200: executionStatusSchema } } },
    async (request): Promise<ExecutionStatus> => {
      const caller = request.caller!;
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
      if (isSystemAdmin(caller)) {
        const failed = await db
          .selectFrom('executions as e')
          .select(['e.id', 'e.facility_id', 'e.started_on', 'e.finished_on', 'e.error'])
          .where('e.state', '=', 'failed')
          .orderBy('e.finished_on', (ob) => ob.desc().nullsLast())
          .limit(FAILED_LIMIT)
          .execute();
        status.failed = failed.map((e) => ({
          id: e.id,
          facilityId: e.facility_id,
          startedOn: iso(e.started_on),
          finishedOn: iso(e.finished_on),
          error: e.error,
        }));
      }
      return status;
    },
  );
}
