import type { FastifyInstance } from 'fastify';
import { settingsRoutes } from './settings/routes';
import { facilityRoutes } from './facilities/routes';
import { dataSourceRoutes } from './datasources/routes';
import { fileRoutes } from './files/routes';
import { messageRoutes } from './messages/routes';
import { executionStatusRoutes } from './executions/routes';
import { executeRoutes } from './executions/execute-routes';
import { changePasswordRoutes } from './users/change-password';
import { organizationRoutes } from './organizations/routes';
import { userRoutes } from './users/routes';
import { shipInfoRoutes } from './ship-info/routes';
import { documentRoutes } from './documents/routes';
import { calculationRoutes } from './calculations/routes';
import { reportRoutes } from './reports/routes';
import { auditLogRoutes } from './audit/routes';
import { eventRoutes } from './events/routes';
import { dataHealthRoutes } from './data-health/routes';
import { mapRoutes } from './map/routes';
import { webhookRoutes } from './webhooks/routes';
import { alertRoutes } from './alerts/routes';
import { apiKeyRoutes } from './api-keys/routes';
import { inspectionPackRoutes } from './inspection-packs/routes';
import { carbonRoutes } from './carbon/routes';
import { portRoutes } from './ports/routes';
import { ukEtsRoutes } from './uk-ets/routes';
import { fuelEuRoutes } from './fueleu/routes';
import { euEtsRoutes } from './eu-ets/routes';
import { verificationRoutes } from './verification/routes';
import { complianceCalendarRoutes } from './compliance-calendar/routes';
import { costCockpitRoutes } from './cost-cockpit/routes';
import { zoneWarningRoutes } from './zone-warnings/routes';
import { liveRoutes } from './live/routes';
import { retentionRoutes } from './retention/routes';

/** Route plugins of every domain, registered in this order after the auth routes (app.ts). */
export const featureRoutes: ((app: FastifyInstance) => Promise<void>)[] = [
  settingsRoutes,
  facilityRoutes,
  dataSourceRoutes,
  fileRoutes,
  messageRoutes,
  executionStatusRoutes,
  executeRoutes,
  changePasswordRoutes,
  organizationRoutes,
  userRoutes,
  shipInfoRoutes,
  documentRoutes,
  calculationRoutes,
  reportRoutes,
  auditLogRoutes,
  eventRoutes,
  dataHealthRoutes,
  mapRoutes,
  webhookRoutes,
  alertRoutes,
  apiKeyRoutes,
  inspectionPackRoutes,
  carbonRoutes,
  portRoutes,
  ukEtsRoutes,
  fuelEuRoutes,
  euEtsRoutes,
  verificationRoutes,
  complianceCalendarRoutes,
  costCockpitRoutes,
  zoneWarningRoutes,
  liveRoutes,
  retentionRoutes,
];
