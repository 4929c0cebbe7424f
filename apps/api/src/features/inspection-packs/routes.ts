import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  inspectionPackSchema,
  inspectionPackScheduleBodySchema,
  inspectionPackScheduleSchema,
  newInspectionPackSchema,
  INSPECTION_PACK_SCHEDULE_MESSAGES,
} from '@portal/contracts/inspection-packs';
import { conflict } from '../../errors';
import { authenticatedRoutes } from '../access/authenticated';
import { LEDGER_READS } from '../access/verifier';
import { idParam } from '../access/params';
import { assertFacilityVisible } from '../access/policy';
import { auditEvent } from '../audit/audit';
import { attachmentDisposition } from '../documents/content-disposition';
import { findPack, listPacks, presentPack, shipName } from './queries';
import { deleteSchedule, requestPack, saveSchedule, scheduleOf } from './service';
import { readPackParts } from './store';

const tags = ['inspection-packs'];
const shipParams = z.object({ id: idParam() });
const packParams = z.object({ id: idParam(), packId: idParam() });

/**
 * A ship's inspection packs (docs/decisions/0106-inspection-packs.md): everyone who sees the ship lists, builds and
 * downloads them (an organization's API key with reports:read lists and downloads); the monthly schedule of the
 * caller's organization is set by its administrators. Another organization's ship answers "Ship not found".
 */
export async function inspectionPackRoutes(app: FastifyInstance) {
  const routes = authenticatedRoutes(app);
  const { db } = app;
  const services = app.services;

  routes.get(
    '/api/facilities/:id/inspection-packs',
    {
      config: LEDGER_READS,
      schema: {
        tags,
        description:
          "The ship's inspection packs, newest request first, with the state and progress of each build.",
        params: shipParams,
        response: { 200: z.array(inspectionPackSchema) },
      },
    },
    async (request) => {
      await assertFacilityVisible(db, request.caller, request.params.id);
      return listPacks(db, request.params.id);
    },
  );

  routes.post(
    '/api/facilities/:id/inspection-packs',
    {
      schema: {
        tags,
        description:
          "Queues the build of an inspection pack of the ship for a period (its first and last day, UTC, at most 400 days): a PDF and the period's original logger files with their manifest, in one zip. Answers the queued pack; GET it for its progress.",
        params: shipParams,
        body: newInspectionPackSchema,
        response: { 202: inspectionPackSchema },
      },
    },
    async (request, reply) => {
      await assertFacilityVisible(db, request.caller, request.params.id);
      const pack = await requestPack(services, request.caller, request.params.id, request.body);
      return reply.code(202).send(pack);
    },
  );

  routes.get(
    '/api/facilities/:id/inspection-packs/schedule',
    {
      schema: {
        tags,
        description:
          "The monthly inspection pack of the ship of the caller's organization: whether there is one, its recipients, and the users who may be chosen (the organization's users who see the ship, with their alert address).",
        params: shipParams,
        response: { 200: inspectionPackScheduleSchema },
      },
    },
    async (request) => {
      await assertFacilityVisible(db, request.caller, request.params.id);
      return scheduleOf(db, request.caller, request.params.id);
    },
  );

  routes.put(
    '/api/facilities/:id/inspection-packs/schedule',
    {
      schema: {
        tags,
        description:
          "Sets the monthly inspection pack of the ship for the caller's organization (its administrators, or a SystemAdmin): the pack of the previous calendar month (UTC) is built at the start of each month and its download link e-mailed to the recipients.",
        params: shipParams,
        body: inspectionPackScheduleBodySchema.extend({
          recipientIds: z
            .array(idParam(), { error: INSPECTION_PACK_SCHEDULE_MESSAGES.recipientsRequired })
            .min(1, INSPECTION_PACK_SCHEDULE_MESSAGES.recipientsRequired)
            .max(100),
        }),
        response: { 200: inspectionPackScheduleSchema },
      },
    },
    async (request) => {
      await assertFacilityVisible(db, request.caller, request.params.id);
      return saveSchedule(services, request.caller, request.params.id, request.body.recipientIds);
    },
  );

  routes.delete(
    '/api/facilities/:id/inspection-packs/schedule',
    {
      schema: {
        tags,
        description:
          "Stops the monthly inspection pack of the ship for the caller's organization; packs made stay.",
        params: shipParams,
        response: { 200: inspectionPackScheduleSchema },
      },
    },
    async (request) => {
      await assertFacilityVisible(db, request.caller, request.params.id);
      return deleteSchedule(services, request.caller, request.params.id);
    },
  );

  routes.get(
    '/api/facilities/:id/inspection-packs/:packId',
    {
      config: LEDGER_READS,
      schema: { tags, params: packParams, response: { 200: inspectionPackSchema } },
    },
    async (request) => {
      const { id, packId } = request.params;
      await assertFacilityVisible(db, request.caller, id);
      return presentPack(await findPack(db, id, packId), await shipName(db, id));
    },
  );

  routes.get(
    '/api/facilities/:id/inspection-packs/:packId/download',
    {
      config: LEDGER_READS,
      schema: {
        tags,
        description:
          'The ready pack as a zip: the PDF, the original logger files of the period under originals/ and manifest.csv with the SHA-256 of each. 409 while it is being built.',
        params: packParams,
      },
    },
    async (request, reply) => {
      const { id, packId } = request.params;
      await assertFacilityVisible(db, request.caller, id);
      const pack = presentPack(await findPack(db, id, packId), await shipName(db, id));
      if (pack.state !== 'ready' || pack.zipBytes === null)
        throw conflict(
          pack.state === 'failed'
            ? 'The inspection pack could not be built: build it again'
            : 'The inspection pack is not ready yet',
        );
      await auditEvent(db, request.caller, {
        action: 'inspection-pack.download',
        subject: packId,
        detail: { facilityId: id },
      });
      return reply
        .header('content-type', 'application/zip')
        .header('content-length', String(pack.zipBytes))
        .header('content-disposition', attachmentDisposition(pack.fileName))
        .send(Readable.from(readPackParts(db, packId)));
    },
  );
}
