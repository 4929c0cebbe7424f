import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  acknowledgeEventSchema,
  closeEventSchema,
  complianceEventDetailSchema,
  complianceEventSchema,
  eventListQuerySchema,
  eventInputsSchema,
  eventListSchema,
  eventReportBodySchema,
  eventReportSchema,
  eventReportSentSchema,
  newEventReportRevisionSchema,
  newRecordBookEntrySchema,
  organizationEventRulesBodySchema,
  organizationEventRulesSchema,
  recordBookEntrySchema,
  recordBookQuerySchema,
  recordBookVerifySchema,
} from '@portal/contracts/events';
import { verifyRecordBook } from '../../storage';
import { authenticatedRoutes } from '../access/authenticated';
import { LEDGER_READS } from '../access/verifier';
import { idParam } from '../access/params';
import { assertFacilityVisible, isSystemAdmin, requireManageOrganization } from '../access/policy';
import { notFound } from '../../errors';
import { organizationExists } from '../facilities/queries';
import { recordBookWorkbook } from './documents';
import { eventInputs } from './inputs';
import { findEvent, findVisibleEvent, listEvents, organizationEventRules, shipOf } from './queries';
import {
  currentReportPdf,
  eventReport,
  markEventReportSent,
  reviseEventReport,
  revisionPdf,
  saveEventReport,
} from './report';
import {
  acknowledgeEvent,
  addRecordBookEntry,
  closeEvent,
  recordBook,
  saveOrganizationEventRules,
} from './service';

const idParams = z.object({ id: idParam() });
/** The revision's number is read once the event is found (a foreign event answers 404 whatever the number). */
const revisionParams = z.object({
  id: idParam(),
  revision: z.string().describe('The revision number: 1, 2, …'),
});
const reportFileName = (event: { facilityName: string; start: string }, revision?: number) =>
  `${safeFileName(event.facilityName)}_${event.start.slice(0, 10)}_malfunction_report${revision ? `_revision_${revision}` : ''}.pdf`;
const safeFileName = (name: string) => name.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80) || 'ship';

/**
 * Compliance events and the record book (docs/decisions/0080-compliance-events.md). Everyone who sees a ship sees
 * its events and record book, acknowledges events and adds entries (as for uploads); closing an event is for a
 * UserAdmin or a SystemAdmin. Another organization's event or book answers as a missing one.
 */
export async function eventRoutes(app: FastifyInstance) {
  const routes = authenticatedRoutes(app);
  const { db } = app;
  const tags = ['events'];

  routes.get(
    '/api/events',
    {
      config: { apiKeyScopes: ['reports:read'], reads: 'replica' },
      schema: {
        tags,
        description:
          'Events of the ships the caller sees, overlapping [from, to): those not closed first (reports due first among them), then newest first.',
        querystring: eventListQuerySchema.extend({ facilityId: idParam().optional() }),
        response: { 200: eventListSchema },
      },
    },
    async (request) => listEvents(request.reads, request.caller, request.query),
  );

  routes.get(
    '/api/events/:id',
    {
      config: { apiKeyScopes: ['reports:read'] },
      schema: {
        tags,
        params: idParams,
        description: 'The event, with every acknowledgement it was given (its revisions), oldest first.',
        response: { 200: complianceEventDetailSchema },
      },
    },
    async (request) => findEvent(db, request.caller, request.params.id),
  );

  routes.get(
    '/api/events/:id/inputs',
    {
      config: { apiKeyScopes: ['reports:read'] },
      schema: {
        tags,
        params: idParams,
        description:
          "The event's input values (SO2/CO2 ratio and limit, scrubber running and required) from 6 h before its start to 6 h after its end: its chart.",
        response: { 200: eventInputsSchema },
      },
    },
    async (request) => eventInputs(db, await findVisibleEvent(db, request.caller, request.params.id)),
  );

  routes.post(
    '/api/events/:id/acknowledge',
    {
      schema: {
        tags,
        params: idParams,
        description:
          'Acknowledges the event with a cause, the actions taken and a comment; again, a new revision of its acknowledgement.',
        body: acknowledgeEventSchema,
        response: { 200: complianceEventDetailSchema },
      },
    },
    async (request) => acknowledgeEvent(db, request.caller, request.params.id, request.body),
  );

  routes.post(
    '/api/events/:id/close',
    { schema: { tags, params: idParams, body: closeEventSchema, response: { 200: complianceEventSchema } } },
    async (request) => closeEvent(db, request.caller, request.params.id, request.body.comment),
  );

  routes.get(
    '/api/events/:id/report',
    {
      config: { apiKeyScopes: ['reports:read'] },
      schema: { tags, params: idParams, response: { 200: eventReportSchema } },
    },
    async (request) => eventReport(db, request.caller, request.params.id),
  );

  routes.put(
    '/api/events/:id/report',
    {
      schema: {
        tags,
        params: idParams,
        description:
          'Saves the report as edited. Once it is marked sent it is frozen (409): a correction is a new revision.',
        body: eventReportBodySchema,
        response: { 200: eventReportSchema },
      },
    },
    async (request) => saveEventReport(db, request.caller, request.params.id, request.body),
  );

  routes.post(
    '/api/events/:id/report/sent',
    {
      schema: {
        tags,
        params: idParams,
        description:
          "The report's current revision was sent on that day: its PDF is kept as sent, with its SHA-256 in the record book, and the report is frozen.",
        body: eventReportSentSchema,
        response: { 200: eventReportSchema },
      },
    },
    async (request) => markEventReportSent(db, request.caller, request.params.id, request.body.sentOn),
  );

  routes.post(
    '/api/events/:id/report/revisions',
    {
      schema: {
        tags,
        params: idParams,
        description:
          'Supersedes the sent report with its next revision, for a reason: the fields given replace those sent. The revision is edited and sent like the first.',
        body: newEventReportRevisionSchema,
        response: { 201: eventReportSchema },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await reviseEventReport(db, request.caller, request.params.id, request.body)),
  );

  routes.get(
    '/api/events/:id/report/revisions/:revision/pdf',
    {
      config: { apiKeyScopes: ['reports:read'] },
      schema: {
        tags,
        params: revisionParams,
        description:
          'A sent revision of the report as PDF: the bytes as sent, whose SHA-256 the record book entry holds.',
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const event = await findEvent(db, request.caller, id);
      const revision = /^[1-9][0-9]{0,6}$/.test(request.params.revision)
        ? Number(request.params.revision)
        : 0;
      const { pdf, sha256 } = await revisionPdf(db, request.caller, id, revision);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="${reportFileName(event, revision)}"`)
        .header('x-content-sha256', sha256)
        .send(pdf);
    },
  );

  routes.get(
    '/api/events/:id/report/download',
    {
      config: { apiKeyScopes: ['reports:read'] },
      schema: {
        tags,
        params: idParams,
        description:
          'The report to the flag State and the port State as PDF: once sent, the PDF as sent; before, as it stands.',
      },
    },
    async (request, reply) => {
      const event = await findEvent(db, request.caller, request.params.id);
      const { pdf } = await currentReportPdf(db, request.caller, request.params.id);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="${reportFileName(event)}"`)
        .send(pdf);
    },
  );

  routes.get(
    '/api/facilities/:id/record-book',
    {
      config: LEDGER_READS,
      schema: {
        tags,
        params: idParams,
        querystring: recordBookQuerySchema,
        response: { 200: z.array(recordBookEntrySchema) },
      },
    },
    async (request) => {
      await assertFacilityVisible(db, request.caller, request.params.id);
      return recordBook(db, request.params.id, request.query);
    },
  );

  routes.post(
    '/api/facilities/:id/record-book',
    {
      schema: {
        tags,
        params: idParams,
        body: newRecordBookEntrySchema,
        response: { 201: recordBookEntrySchema },
      },
    },
    async (request, reply) => {
      await assertFacilityVisible(db, request.caller, request.params.id);
      const entry = await addRecordBookEntry(app.services, request.caller, request.params.id, request.body);
      return reply.code(201).send(entry);
    },
  );

  routes.get(
    '/api/facilities/:id/record-book/verify',
    {
      config: LEDGER_READS,
      schema: {
        tags,
        params: idParams,
        description:
          'Recomputes the record book hash chain from its first entry; names the first entry that does not match.',
        response: { 200: recordBookVerifySchema },
      },
    },
    async (request) => {
      await assertFacilityVisible(db, request.caller, request.params.id);
      return verifyRecordBook(db, request.params.id);
    },
  );

  routes.get(
    '/api/facilities/:id/record-book/export',
    {
      config: LEDGER_READS,
      schema: {
        tags,
        params: idParams,
        querystring: recordBookQuerySchema,
        description: 'The record book entries of a period as .xlsx, with each entry hash.',
      },
    },
    async (request, reply) => {
      await assertFacilityVisible(db, request.caller, request.params.id);
      const ship = await shipOf(db, request.params.id);
      const entries = await recordBook(db, request.params.id, request.query);
      const workbook = await recordBookWorkbook(ship, entries, request.query);
      return reply
        .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', `attachment; filename="${safeFileName(ship.name)}_record_book.xlsx"`)
        .send(workbook);
    },
  );

  routes.get(
    '/api/organizations/:id/event-rules',
    {
      schema: {
        tags,
        description:
          "The thresholds the engine derives the organization's events with (docs/decisions/0080): its own, or the defaults.",
        params: idParams,
        response: { 200: organizationEventRulesSchema },
      },
    },
    async (request) => {
      const { caller } = request;
      const { id } = request.params;
      if (!isSystemAdmin(caller) && caller.organizationId !== id) throw notFound('Organization not found');
      if (!(await organizationExists(db, id))) throw notFound('Organization not found');
      return organizationEventRules(db, id);
    },
  );

  routes.put(
    '/api/organizations/:id/event-rules',
    {
      schema: {
        tags,
        description:
          "Sets the organization's event thresholds (an administrator of the organization, or a SystemAdmin), or goes back to the defaults with useDefaults. They apply to the periods executed from then on.",
        params: idParams,
        body: organizationEventRulesBodySchema,
        response: { 200: organizationEventRulesSchema },
      },
    },
    async (request) => {
      const { caller } = request;
      const { id } = request.params;
      requireManageOrganization(caller, id);
      if (!(await organizationExists(db, id))) throw notFound('Organization not found');
      await saveOrganizationEventRules(db, caller, id, 'rules' in request.body ? request.body.rules : null);
      return organizationEventRules(db, id);
    },
  );
}
