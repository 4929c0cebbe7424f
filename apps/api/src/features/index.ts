import type { FastifyInstance } from 'fastify';
import { settingsRoutes } from './settings/routes';
import { facilityRoutes } from './facilities/routes';

/** Route plugins of every domain, registered in this order after the auth routes (app.ts). */
export const featureRoutes: ((app: FastifyInstance) => Promise<void>)[] = [settingsRoutes, facilityRoutes];
