import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { authenticatedRoutes } from '../access/authenticated';
import { idParam } from '../access/params';
import {
  executionSchema,
  executionStatusSchema,
  type Execution,
  type ExecutionCounts,
  type ExecutionStatus,
} from '@portal/contracts/executions';
import { notFound } from '../../errors';
import { executionOf, lastFailedExecutions, runningExecutions } from './queries';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/**
 * Processing status for the ship list and the files screen: running and queued executions of the caller's ships,
 * and per ship the last execution when it failed (until a later one succeeds), to anyone who sees the ship, i.e. may
 * upload to it and run it again. One execution by its id, for whoever follows a run.
 */
export async function executionStatusRoutes(app: FastifyInstance) {
  const routes = authenticatedRoutes(app);
  const { db } = app;

  // The spec names it algorithm/calculations/base; algorithm/calculations stays for callers of earlier versions.
  for (const url of ['/api/algorithm/calculations/base', '/api/algorithm/calculations'])
    routes.get(
      url,
      { schema: { tags: ['executions'], response: { 200: executionStatusSchema } } },
      async (request): Promise<ExecutionStatus> => {
        const { caller } = request;
        const running = await runningExecutions(db, caller);
        const failed = await lastFailedExecutions(db, caller);
        return {
          items: running.map((e) => ({
            id: e.id,
            facilityId: e.facility_id,
            startedOn: iso(e.started_on ?? e.requested_on)!,
            state: e.state as 'queued' | 'running',
          })),
          failed: failed.map((e) => ({
            id: e.id,
            facilityId: e.facility_id,
            startedOn: iso(e.started_on),
            finishedOn: iso(e.finished_on),
            error: e.error,
          })),
        };
      },
    );

  routes.get(
    '/api/executions/:id',
    {
      // The upload's answer names its execution: an uploader's key may follow it.
      config: { apiKeyScopes: ['files:upload'] },
      schema: {
        tags: ['executions'],
        params: z.object({ id: idParam() }),
        response: { 200: executionSchema },
      },
    },
    async (request): Promise<Execution> => {
      // Another organization's execution (a ship the caller does not see) answers as a missing one.
      const row = await executionOf(db, request.caller, request.params.id);
      if (!row) throw notFound('Execution not found');
      return {
        id: row.id,
        facilityId: row.facility_id,
        kind: row.kind,
        origin: row.origin,
        uploads: row.uploads,
        dataFileIds: row.data_file_ids ?? [],
        state: row.state,
        period: { from: iso(row.period_from)!, to: iso(row.period_to)! },
        requestedOn: iso(row.requested_on)!,
        startedOn: iso(row.started_on),
        finishedOn: iso(row.finished_on),
        attempts: row.attempts,
        counts: row.state === 'done' ? ((row.counts as ExecutionCounts | null) ?? null) : null,
        error: row.error,
      };
    },
  );
}
