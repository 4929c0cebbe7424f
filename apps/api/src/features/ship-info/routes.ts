import { parseReaderConfiguration } from '@portal/contracts/readers';
import type { FastifyInstance } from 'fastify';
import { authenticatedRoutes } from '../access/authenticated';
import { z } from 'zod';
import { provisionFileName, SHIP_MESSAGES } from '@portal/contracts/forms/ship';
import { MESSAGES } from '@portal/contracts/rules';
import {
  credentialParamsSchema,
  shipIdParamsSchema,
  facilitySchema,
  isAcceptableShipImage,
  provisionedCredentialSchema,
  updateFacilityBodySchema,
  UPLOAD_TOKEN_HEADER,
  uploadCredentialSchema,
  uploaderPackageQuerySchema,
} from '@portal/contracts/ship-info';
import { shipBrokerUrl } from '../../config';
import { AppError, badRequest } from '../../errors';
import type { Caller } from '../access/caller';
import { withIds } from '../access/params';
import { assertFacilityVisible, requireSystemAdmin } from '../access/policy';
import { auditedChange } from '../audit/audit';
import { attachmentDisposition } from '../documents/content-disposition';
import { facilitiesVisibleTo, toFacility } from '../facilities/queries';
import { brokerAdminOf, provisionShipCredential, removeShipCredential } from './broker-credentials';
import { createUploadCredential, resolveUploadToken } from './credentials';
import { buildUploaderPackage } from './package';
import {
  facilityIdAndName,
  revokeUploadCredential,
  updateFacilityInfo,
  uploadCredentials,
  uploaderDataSources,
} from './queries';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
const toCredential = (row: {
  id: string;
  created_on: Date;
  created_by: string | null;
  last_used_on: Date | null;
  revoked_on: Date | null;
}) => ({
  id: row.id,
  createdOn: iso(row.created_on)!,
  createdBy: row.created_by,
  lastUsedOn: iso(row.last_used_on),
  revokedOn: iso(row.revoked_on),
});

export async function shipInfoRoutes(app: FastifyInstance) {
  const routes = authenticatedRoutes(app);
  const { db, config } = app;
  const tags = ['ship info'];
  const brokerAdmin = brokerAdminOf(config);

  const loadFacility = async (caller: Caller, id: string) => {
    await assertFacilityVisible(db, caller, id);
    return toFacility(await facilitiesVisibleTo(db, caller).where('f.id', '=', id).executeTakeFirstOrThrow());
  };

  routes.get(
    '/api/facilities/:id/facility',
    { schema: { tags, params: shipIdParamsSchema, response: { 200: facilitySchema } } },
    async (request) => loadFacility(request.caller, request.params.id),
  );

  routes.put(
    '/api/facilities/:id/facility',
    {
      schema: {
        tags,
        params: shipIdParamsSchema,
        body: updateFacilityBodySchema,
        response: { 200: facilitySchema },
      },
    },
    async (request) => {
      const { caller } = request;
      const { id } = request.params;
      await assertFacilityVisible(db, caller, id);
      requireSystemAdmin(caller);
      const body = request.body;
      if (body.imageBase64 && !isAcceptableShipImage(body.imageBase64)) {
        throw badRequest(SHIP_MESSAGES.imageTooLarge, { imageBase64: SHIP_MESSAGES.imageTooLarge });
      }
      await auditedChange(
        db,
        caller,
        (trx) => updateFacilityInfo(trx, id, body),
        (particulars) => ({
          action: 'facility.update',
          subject: id,
          // The particulars the CII reads, each with its value before and after, when the edit changed them.
          detail: { name: body.name, ...(Object.keys(particulars).length > 0 ? { particulars } : {}) },
        }),
      );
      return loadFacility(caller, id);
    },
  );

  // --- Automate file upload -----------------------------------------------------------------------

  routes.get(
    '/api/facilities/:id/upload-credentials',
    { schema: { tags, params: shipIdParamsSchema, response: { 200: z.array(uploadCredentialSchema) } } },
    async (request) => {
      const { caller } = request;
      await assertFacilityVisible(db, caller, request.params.id);
      requireSystemAdmin(caller);
      const rows = await uploadCredentials(db, request.params.id);
      return rows.map(toCredential);
    },
  );

  routes.post(
    '/api/facilities/:id/upload-credentials',
    { schema: { tags, params: shipIdParamsSchema, response: { 201: provisionedCredentialSchema } } },
    async (request, reply) => {
      const { caller } = request;
      const { id } = request.params;
      await assertFacilityVisible(db, caller, id);
      requireSystemAdmin(caller);
      const facility = await facilityIdAndName(db, id);
      if (!facility.name.trim())
        throw badRequest(SHIP_MESSAGES.shipNameRequired, { name: SHIP_MESSAGES.shipNameRequired });
      const { row, token } = await auditedChange(
        db,
        caller,
        async (trx) => {
          const made = await createUploadCredential(trx, id, caller.userId);
          // On a real Mosquitto the credential is a broker client too (decision 0131): made now, the one moment the
          // token is known, or the credential is not made at all.
          if (brokerAdmin)
            await provisionShipCredential(brokerAdmin, {
              facilityId: id,
              credentialId: made.row.id,
              token: made.token,
            }).catch((error: unknown) => {
              const refused = new AppError(
                'UNAVAILABLE',
                'The MQTT broker did not take the new credential, so none was made: try again when the broker answers',
              );
              refused.cause = error;
              throw refused;
            });
          return made;
        },
        ({ row }) => ({ action: 'facility.provision', subject: id, detail: { credentialId: row.id } }),
      );
      return reply.code(201).send({ ...toCredential(row), token });
    },
  );

  routes.delete(
    '/api/facilities/:id/upload-credentials/:credentialId',
    {
      schema: {
        tags,
        params: withIds(credentialParamsSchema, 'id', 'credentialId'),
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      const { caller } = request;
      const { id, credentialId } = request.params;
      await assertFacilityVisible(db, caller, id);
      requireSystemAdmin(caller);
      await auditedChange(db, caller, (trx) => revokeUploadCredential(trx, id, credentialId), {
        action: 'facility.revoke-upload-credential',
        subject: id,
        detail: { credentialId },
      });
      // The broker's client goes too, and Mosquitto disconnects it. Revoked stays revoked when the broker does not
      // answer: the live stream's reconciliation deletes it when it can (features/ship-info/broker-credentials.ts).
      if (brokerAdmin)
        await removeShipCredential(brokerAdmin, credentialId).catch((error: unknown) =>
          request.log.warn(
            { err: error, credentialId },
            'The revoked upload credential is still a client of the MQTT broker: it is deleted at the next reconciliation',
          ),
        );
      return reply.code(204).send(null);
    },
  );

  routes.get(
    '/api/scripts/psdu/facilities/:id',
    { schema: { tags, params: shipIdParamsSchema, querystring: uploaderPackageQuerySchema } },
    async (request, reply) => {
      const { caller } = request;
      const { id } = request.params;
      const mode = request.query.mode ?? 'upload';
      // The broker the ship's edge node publishes to, signed in with the ship's upload token (features/live).
      const mqttUrl = shipBrokerUrl(config);
      if (mode === 'edge-node' && !mqttUrl)
        throw badRequest('Live data is off on this portal (LIVE=off): download the uploader in upload mode');
      await assertFacilityVisible(db, caller, id);
      requireSystemAdmin(caller);
      const facility = await facilityIdAndName(db, id);
      if (!facility.name.trim()) throw badRequest(SHIP_MESSAGES.shipNameRequired);
      // A token provisioned a moment ago may come along to be written into the configuration; it must be this ship's.
      const header = request.headers[UPLOAD_TOKEN_HEADER];
      const token = typeof header === 'string' ? header.trim() : '';
      if (token && (await resolveUploadToken(db, token))?.facilityId !== id)
        throw badRequest('The upload token does not belong to this ship');
      const dataSources = await uploaderDataSources(db, id);
      if (!dataSources.length)
        throw new AppError(
          'UNPROCESSABLE',
          `${MESSAGES.PSDU_BUILD_ERROR} The ship has no data source to upload to.`,
        );
      let zip: Uint8Array;
      try {
        zip = buildUploaderPackage({
          serverUrl: config.publicUrl,
          facilityId: id,
          shipName: facility.name,
          token,
          mode,
          mqttUrl,
          groupId: config.MQTT_GROUP_ID,
          mqttCa: config.mqttCa,
          dataSources: dataSources.map((d) => ({
            id: d.id,
            name: d.name,
            isPrimary: d.is_primary,
            // A configuration the portal cannot read is left out: the edge node then says so for its files.
            ...readerOf(d.reader_id, d.reader_configuration),
            utcOffsetMinutes: d.utc_offset_minutes,
            channels: d.channels,
          })),
        });
      } catch (error) {
        request.log.error({ err: error }, 'PSDU package failed');
        throw new AppError('INTERNAL', MESSAGES.PSDU_BUILD_ERROR);
      }
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', attachmentDisposition(provisionFileName(facility.name)))
        .header('cache-control', 'no-store')
        .send(Buffer.from(zip));
    },
  );
}

/** The reader and its configuration as the uploader's edge-node mode parses with them, or nothing when invalid. */
function readerOf(readerId: string, json: string) {
  const parsed = parseReaderConfiguration(readerId, json);
  return parsed.ok ? { readerId, readerConfiguration: parsed.configuration } : {};
}
