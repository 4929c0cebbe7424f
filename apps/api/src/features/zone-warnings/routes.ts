import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  shipZoneWarningsSchema,
  zoneWarningSettingsSchema,
  ZONE_WARNING_HORIZON_LIMITS,
} from '@portal/contracts/zone-warnings';
import { notFound } from '../../errors';
import { authenticatedRoutes } from '../access/authenticated';
import { idParam } from '../access/params';
import { assertFacilityVisible, isSystemAdmin, requireManageOrganization } from '../access/policy';
import { organizationExists } from '../facilities/queries';
import { saveZoneWarningSettings, shipZoneWarnings, zoneWarningSettings } from './service';

const tags = ['zone-warnings'];
const idParams = z.object({ id: idParam() });

/** Zone warnings before arrival (issue 33, docs/decisions/0123-zone-warnings.md). */
export async function zoneWarningRoutes(app: FastifyInstance) {
  const routes = authenticatedRoutes(app);
  const { db } = app;

  // For anyone who sees the ship, as its map is.
  routes.get(
    '/api/facilities/:id/zone-warnings',
    {
      schema: {
        tags,
        description:
          "The ship's active zone warnings (a zone ahead that bans its mode: a no-discharge zone in open loop, an ECA on high-sulfur fuel with the scrubber off) and its track ahead to its organization's horizon, by dead reckoning from its course and speed over ground at its last position of the last 30 minutes (none without one).",
        params: idParams,
        response: { 200: shipZoneWarningsSchema },
      },
    },
    async (request) => {
      await assertFacilityVisible(db, request.caller, request.params.id);
      return shipZoneWarnings(db, request.params.id);
    },
  );

  routes.get(
    '/api/organizations/:id/zone-warning-settings',
    {
      schema: {
        tags,
        description:
          "The organization's horizon of zone warnings: how far ahead its ships' tracks are projected.",
        params: idParams,
        response: { 200: zoneWarningSettingsSchema },
      },
    },
    async (request) => {
      const { caller } = request;
      const { id } = request.params;
      if (!isSystemAdmin(caller) && caller.organizationId !== id) throw notFound('Organization not found');
      if (!(await organizationExists(db, id))) throw notFound('Organization not found');
      return zoneWarningSettings(db, id);
    },
  );

  routes.put(
    '/api/organizations/:id/zone-warning-settings',
    {
      schema: {
        tags,
        description: `Sets the organization's horizon of zone warnings, ${ZONE_WARNING_HORIZON_LIMITS.min} to ${ZONE_WARNING_HORIZON_LIMITS.max} minutes (its administrator or a SystemAdmin); audited. It applies from the ships' next evaluation.`,
        params: idParams,
        body: zoneWarningSettingsSchema,
        response: { 200: zoneWarningSettingsSchema },
      },
    },
    async (request) => {
      const { caller } = request;
      const { id } = request.params;
      requireManageOrganization(caller, id);
      if (!(await organizationExists(db, id))) throw notFound('Organization not found');
      await saveZoneWarningSettings(db, caller, id, request.body);
      return zoneWarningSettings(db, id);
    },
  );
}
