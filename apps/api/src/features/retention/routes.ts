import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  MONTH_PATTERN,
  retentionBodySchema,
  retentionSchema,
  storageMonthsSchema,
} from '@portal/contracts/retention';
import { authenticatedRoutes } from '../access/authenticated';
import { idParam } from '../access/params';
import { isSystemAdmin, requireManageOrganization, requireSystemAdmin } from '../access/policy';
import { notFound } from '../../errors';
import { organizationExists } from '../facilities/queries';
import { archiveMonthBy, readRetention, restoreMonthBy, saveRetention, storageMonths } from './service';

const tags = ['retention'];
const idParams = z.object({ id: idParam() });
const monthParams = z.object({ month: z.string().regex(MONTH_PATTERN, 'A month is written YYYY-MM') });
const monthResult = z.object({ tables: z.array(z.string()) });

/**
 * Data retention (docs/decisions/0125-partitions-and-retention.md): an organization's setting, read by its users and
 * set by its administrators (or a SystemAdmin), audited; the month partitions, archived and restored by a
 * SystemAdmin, audited.
 */
export async function retentionRoutes(app: FastifyInstance) {
  const routes = authenticatedRoutes(app);
  const { db } = app;

  routes.get(
    '/api/organizations/:id/retention',
    {
      schema: {
        tags,
        description:
          "How long the organization's data stay online (months, at least 18) and what happens to older data: archived (kept offline, restorable) or deleted.",
        params: idParams,
        response: { 200: retentionSchema },
      },
    },
    async (request) => {
      const { caller } = request;
      const { id } = request.params;
      if (!isSystemAdmin(caller) && caller.organizationId !== id) throw notFound('Organization not found');
      return readRetention(db, id);
    },
  );

  routes.put(
    '/api/organizations/:id/retention',
    {
      schema: {
        tags,
        description:
          "Sets the organization's data retention (an administrator of the organization, or a SystemAdmin), audited. Deletion applies on the retention job's next run.",
        params: idParams,
        body: retentionBodySchema,
        response: { 200: retentionSchema },
      },
    },
    async (request) => {
      const { caller } = request;
      const { id } = request.params;
      requireManageOrganization(caller, id);
      if (!(await organizationExists(db, id))) throw notFound('Organization not found');
      return saveRetention(db, caller, id, request.body);
    },
  );

  routes.get(
    '/api/storage/months',
    {
      schema: {
        tags,
        description:
          'The months with data online, the archived months and the month before which every organization lets data go (SystemAdmin).',
        response: { 200: storageMonthsSchema },
      },
    },
    async (request) => {
      requireSystemAdmin(request.caller);
      return storageMonths(db);
    },
  );

  routes.post(
    '/api/storage/months/:month/archive',
    {
      schema: {
        tags,
        description:
          "Archives a month that has ended (SystemAdmin), audited: its partitions are detached and kept in the archive schema; the month's data leave the dashboards and lists until restored.",
        params: monthParams,
        response: { 200: monthResult },
      },
    },
    async (request) => {
      requireSystemAdmin(request.caller);
      return archiveMonthBy(db, request.caller, request.params.month);
    },
  );

  routes.post(
    '/api/storage/months/:month/restore',
    {
      schema: {
        tags,
        description:
          'Restores an archived month (SystemAdmin), audited: its partitions are attached again and its data are back as they were.',
        params: monthParams,
        response: { 200: monthResult },
      },
    },
    async (request) => {
      requireSystemAdmin(request.caller);
      return restoreMonthBy(db, request.caller, request.params.month);
    },
  );
}
