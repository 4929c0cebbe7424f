import type { FastifyInstance } from 'fastify';
import { authenticatedRoutes } from '../access/authenticated';
import { executionStatusSchema, type ExecutionStatus } from '@portal/contracts/executions';
import { lastFailedExecutions, runningExecutions } from './queries';

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
      const running = await runningExecutions(db, caller);
      const status: ExecutionStatus = {
        items: running.map((e) => ({
          id: e.id,
          facilityId: e.facility_id,
          startedOn: iso(e.started_on ?? e.requested_on)!,
          state: e.state as 'queued' | 'running',
        })),
      };
      const failed = await lastFailedExecutions(db, caller);
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
