import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { LIVE_READOUT_WINDOW_MS, liveReadoutSchema } from '@portal/contracts/live';
import { latestStreamSamples } from '../../storage';
import { authenticatedRoutes } from '../access/authenticated';
import { idParam } from '../access/params';
import { assertFacilityVisible } from '../access/policy';
import { liveReadout } from './queries';

const tags = ['live'];
const idParams = z.object({ id: idParam() });

/** The ship's live readout (docs/decisions/0129-live-readout.md). */
export async function liveRoutes(app: FastifyInstance) {
  const routes = authenticatedRoutes(app);
  const { db } = app;

  // For anyone who sees the ship, as its dashboard is.
  routes.get(
    '/api/facilities/:id/live',
    {
      schema: {
        tags,
        description:
          "The ship's live readout: its edge node's link (MQTT Sparkplug B) and the latest streamed value of each channel, with its source time, of the hour before its latest streamed sample; mapped channels first. As stored on arrival, before any calculation.",
        params: idParams,
        response: { 200: liveReadoutSchema },
      },
    },
    async (request) => {
      const { id } = request.params;
      await assertFacilityVisible(db, request.caller, id);
      return liveReadout(db, id, await latestStreamSamples(db, id, LIVE_READOUT_WINDOW_MS));
    },
  );
}
