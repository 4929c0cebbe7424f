import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  calendarQuerySchema,
  calendarYearSchema,
  complianceCalendarSchema,
  deadlineCodeSchema,
  deadlineDoneInputSchema,
} from '@portal/contracts/compliance-calendar';
import { authenticatedRoutes } from '../access/authenticated';
import { idParam } from '../access/params';
import { isSystemAdmin, requireManageOrganization } from '../access/policy';
import type { Caller } from '../access/caller';
import { notFound } from '../../errors';
import { calendarOf, markDone, unmarkDone } from './service';

const tags = ['compliance-calendar'];
const idParams = z.object({ id: idParam() });
const deadlineParams = z.object({ id: idParam(), year: calendarYearSchema, code: deadlineCodeSchema });
const READ = { apiKeyScopes: ['reports:read'] as const };

/** Who reads an organization's calendar: its own users (and keys) and a SystemAdmin; else it is not found. */
function requireSeeOrganization(caller: Caller, organizationId: string): void {
  if (isSystemAdmin(caller) || caller.organizationId === organizationId) return;
  throw notFound('Organization not found');
}

/**
 * The compliance calendar (decision 0119): an organization's deadlines of a year under IMO DCS, EU MRV, EU ETS,
 * FuelEU and UK ETS with their state; its administrators record one as done (or take it back). Audited.
 */
export async function complianceCalendarRoutes(app: FastifyInstance) {
  const routes = authenticatedRoutes(app);
  const { db } = app;

  routes.get(
    '/api/organizations/:id/compliance-calendar',
    {
      config: READ,
      schema: {
        tags,
        description:
          "The organization's compliance deadlines of a calendar year (for the reporting year before it): IMO DCS, EU MRV, EU ETS surrender, FuelEU and UK ETS, each with its date, instrument, state (done, due, overdue) and when its reminder went.",
        params: idParams,
        querystring: calendarQuerySchema,
        response: { 200: complianceCalendarSchema },
      },
    },
    async (request) => {
      requireSeeOrganization(request.caller, request.params.id);
      return calendarOf(db, request.params.id, request.query.year);
    },
  );

  routes.put(
    '/api/organizations/:id/compliance-calendar/:year/:code',
    {
      schema: {
        tags,
        description:
          "Records a deadline of the organization's year as done: the day and a note (what was filed, with whom). By the organization's administrator. Audited.",
        params: deadlineParams,
        body: deadlineDoneInputSchema,
        response: { 200: complianceCalendarSchema },
      },
    },
    async (request) => {
      const { id, year, code } = request.params;
      requireManageOrganization(request.caller, id);
      await markDone(db, request.caller, id, year, code, {
        doneOn: request.body.doneOn,
        note: request.body.note ?? '',
      });
      return calendarOf(db, id, year);
    },
  );

  routes.delete(
    '/api/organizations/:id/compliance-calendar/:year/:code',
    {
      schema: {
        tags,
        description:
          'Takes back a "done" recorded by mistake: the deadline is due or overdue again. By the organization\'s administrator. Audited.',
        params: deadlineParams,
        response: { 200: complianceCalendarSchema },
      },
    },
    async (request) => {
      const { id, year, code } = request.params;
      requireManageOrganization(request.caller, id);
      await unmarkDone(db, request.caller, id, year, code);
      return calendarOf(db, id, year);
    },
  );
}
