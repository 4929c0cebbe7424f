import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  MAX_TRACK_PERIOD_DAYS,
  TRACK_GAP_MINUTES,
  TRACK_MAX_POINTS,
  shipPositionSchema,
  trackQuerySchema,
  trackSchema,
} from '@portal/contracts/map';
import { authenticatedRoutes } from '../access/authenticated';
import { idParam } from '../access/params';
import { assertFacilityVisible } from '../access/policy';
import { fleetPositions, mapPeriod, shipTrack } from './service';

const tags = ['map'];
const idParams = z.object({ id: idParam() });

/** The map (issue 20, docs/decisions/0102-map.md): a ship's track, the fleet's last positions. */
export async function mapRoutes(app: FastifyInstance) {
  const routes = authenticatedRoutes(app);
  const { db } = app;

  // For anyone who sees the ship, as its dashboard is.
  routes.get(
    '/api/facilities/:id/track',
    {
      schema: {
        tags,
        description: `The ship's track over [from, to) (UTC ISO 8601) from its stored LATITUDE and LONGITUDE values, in segments without a gap of more than ${TRACK_GAP_MINUTES} minutes and in one scrubber mode (SCRUBBER_MODE: open or closed loop; null when the ship logs none), thinned to about ${TRACK_MAX_POINTS} positions (each of ${TRACK_MAX_POINTS} equal time slices keeps its first position; a slice with any open-loop position counts as open loop). At most ${MAX_TRACK_PERIOD_DAYS} days at once.`,
        params: idParams,
        querystring: trackQuerySchema,
        response: { 200: trackSchema },
      },
    },
    async (request) => {
      const period = mapPeriod(request.query);
      await assertFacilityVisible(db, request.caller, request.params.id);
      return shipTrack(db, request.params.id, period);
    },
  );

  routes.get(
    '/api/facilities/positions',
    {
      schema: {
        tags,
        description: `The last stored position within [from, to) (UTC ISO 8601) of every ship the caller sees that has one, with its scrubber mode there, by ship name. At most ${MAX_TRACK_PERIOD_DAYS} days at once.`,
        querystring: trackQuerySchema,
        response: { 200: z.array(shipPositionSchema) },
      },
    },
    async (request) => fleetPositions(db, request.caller, mapPeriod(request.query)),
  );
}
