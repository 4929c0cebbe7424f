import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  organizationPortBodySchema,
  organizationPortSchema,
  portDayQuerySchema,
  portListQuerySchema,
  portListSchema,
  portSchema,
} from '@portal/contracts/ports';
import { authenticatedRoutes } from '../access/authenticated';
import { idParam } from '../access/params';
import { requireManageOrganization } from '../access/policy';
import { auditedChange } from '../audit/audit';
import { JOB_NAMES, queueOf } from '../../jobs';
import { findOrganization } from '../organizations/queries';
import {
  assertLocodeFree,
  findOrganizationPort,
  findPort,
  listOrganizationPorts,
  listPorts,
  organizationPortValues,
  portReference,
  requireSeeOrganizationPorts,
} from './service';

const tags = ['ports'];
const organizationParams = z.object({ id: idParam() });
const organizationPortParams = z.object({ id: idParam(), portId: idParam() });
// Any text: what is not a UN/LOCODE is a port that does not exist (404), as any unknown code.
const locodeParams = z.object({ locode: z.string() });

/**
 * Ports (docs/decisions/0108-ports.md). The reference is everyone's; an organization's own ports and corrections are
 * seen by its users and a SystemAdmin, changed by its UserAdmin or a SystemAdmin, and another organization's answer
 * as missing ones. Each change is audited in its transaction.
 */
export async function portRoutes(app: FastifyInstance) {
  const routes = authenticatedRoutes(app);
  const { db } = app;
  /** The organization's ships' carbon ledger is derived again (port calls), in the change's transaction. */
  const queueLedgers = (trx: Parameters<Parameters<typeof auditedChange>[2]>[0], organizationId: string) =>
    queueOf(app.services).sendInTransaction(trx, JOB_NAMES.carbonLedgerPorts, { organizationId });

  routes.get(
    '/api/ports',
    {
      schema: {
        tags,
        description:
          "The ports the caller's organization sees on a day: the sea-port reference (UN/LOCODE's ports with a position, shipped with the product), with the organization's corrections in place of the ports they correct and its own ports; searched by name or UN/LOCODE, within a box. Each port carries its regimes on that day (EU, EEA, outermost region, UK, Northern Ireland, Great Britain).",
        querystring: portListQuerySchema,
        response: { 200: portListSchema },
      },
    },
    async (request) => {
      const { caller } = request;
      const [reference, list] = await Promise.all([
        portReference(db),
        listPorts(db, caller.organizationId, request.query),
      ]);
      return { reference, ...list };
    },
  );

  routes.get(
    '/api/ports/:locode',
    {
      schema: {
        tags,
        description:
          "A port by its UN/LOCODE as the caller's organization sees it on a day: its correction or own port when it has one active that day, else the reference port.",
        params: locodeParams,
        querystring: portDayQuerySchema,
        response: { 200: portSchema },
      },
    },
    async (request) => findPort(db, request.caller.organizationId, request.params.locode, request.query.date),
  );

  routes.get(
    '/api/organizations/:id/ports',
    {
      schema: {
        tags,
        description: "The organization's own ports and its corrections of reference ports, active or not.",
        params: organizationParams,
        response: { 200: z.array(organizationPortSchema) },
      },
    },
    async (request) => {
      requireSeeOrganizationPorts(request.caller, request.params.id);
      await findOrganization(db, request.params.id);
      return listOrganizationPorts(db, request.params.id);
    },
  );

  routes.get(
    '/api/organizations/:id/ports/:portId',
    {
      schema: { tags, params: organizationPortParams, response: { 200: organizationPortSchema } },
    },
    async (request) => {
      requireSeeOrganizationPorts(request.caller, request.params.id);
      await findOrganization(db, request.params.id);
      return findOrganizationPort(db, request.params.id, request.params.portId);
    },
  );

  routes.post(
    '/api/organizations/:id/ports',
    {
      schema: {
        tags,
        description:
          "Adds a port of the organization. With a reference port's UN/LOCODE it corrects that port for the organization (what it leaves out is the reference's: a radius or a polygon alone is enough); without one, or with a code the reference does not have, it is the organization's own port and needs a name, a country and a position (a point, or a polygon whose centre becomes the point). A port is a circle of `radiusNm` (5 nm by default) around its point, or its polygon; active from and to a day when given.",
        params: organizationParams,
        body: organizationPortBodySchema,
        response: { 201: organizationPortSchema },
      },
    },
    async (request, reply) => {
      const { caller } = request;
      const organizationId = request.params.id;
      requireManageOrganization(caller, organizationId);
      await findOrganization(db, organizationId);
      const values = await organizationPortValues(db, request.body);
      const id = await auditedChange(
        db,
        caller,
        async (trx) => {
          await assertLocodeFree(trx, organizationId, values.locode);
          await queueLedgers(trx, organizationId);
          const row = await trx
            .insertInto('organization_ports')
            .values({
              ...values,
              organization_id: organizationId,
              created_by: caller.userId,
              updated_by: caller.userId,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          return row.id;
        },
        (id) => ({ action: 'port.create', subject: id, detail: { organizationId, ...auditDetail(values) } }),
      );
      return reply.code(201).send(await findOrganizationPort(db, organizationId, id));
    },
  );

  routes.put(
    '/api/organizations/:id/ports/:portId',
    {
      schema: {
        tags,
        description: "Changes an organization's port: the body is the whole port, as for adding one.",
        params: organizationPortParams,
        body: organizationPortBodySchema,
        response: { 200: organizationPortSchema },
      },
    },
    async (request) => {
      const { caller } = request;
      const { id: organizationId, portId } = request.params;
      requireManageOrganization(caller, organizationId);
      await findOrganization(db, organizationId);
      const before = await findOrganizationPort(db, organizationId, portId);
      const values = await organizationPortValues(db, request.body);
      await auditedChange(
        db,
        caller,
        async (trx) => {
          await assertLocodeFree(trx, organizationId, values.locode, before.id);
          await queueLedgers(trx, organizationId);
          await trx
            .updateTable('organization_ports')
            .set({ ...values, updated_by: caller.userId, updated_on: new Date() })
            .where('id', '=', before.id)
            .where('organization_id', '=', organizationId)
            .execute();
        },
        {
          action: 'port.update',
          subject: before.id,
          detail: { organizationId, before: auditDetail(before), after: auditDetail(values) },
        },
      );
      return findOrganizationPort(db, organizationId, before.id);
    },
  );

  routes.delete(
    '/api/organizations/:id/ports/:portId',
    {
      schema: {
        tags,
        description:
          "Removes an organization's port; a reference port it corrected is the reference's again for the organization.",
        params: organizationPortParams,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      const { caller } = request;
      const { id: organizationId, portId } = request.params;
      requireManageOrganization(caller, organizationId);
      await findOrganization(db, organizationId);
      const port = await findOrganizationPort(db, organizationId, portId);
      await auditedChange(
        db,
        caller,
        async (trx) => {
          await queueLedgers(trx, organizationId);
          await trx
            .deleteFrom('organization_ports')
            .where('id', '=', port.id)
            .where('organization_id', '=', organizationId)
            .execute();
        },
        { action: 'port.delete', subject: port.id, detail: { organizationId, ...auditDetail(port) } },
      );
      return reply.code(204).send(null);
    },
  );
}

/** What an audit entry keeps of a port: what identifies it and where it is. */
function auditDetail(port: {
  locode: string | null;
  name: string;
  country: string;
  lat: number;
  lon: number;
  radius_nm?: number;
  radiusNm?: number;
  polygon: unknown;
  active_from?: string | null;
  active_to?: string | null;
  activeFrom?: string | null;
  activeTo?: string | null;
}) {
  return {
    locode: port.locode,
    name: port.name,
    country: port.country,
    lat: port.lat,
    lon: port.lon,
    radiusNm: port.radiusNm ?? port.radius_nm,
    polygon: Boolean(port.polygon),
    activeFrom: port.activeFrom ?? port.active_from ?? null,
    activeTo: port.activeTo ?? port.active_to ?? null,
  };
}
