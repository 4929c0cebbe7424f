import { REPORT_CODES } from '@portal/contracts/reports';

const C = REPORT_CODES;

/**
 * The reports the fleet dashboard asks for in its one call (apps/web/src/features/dashboards/FleetDashboardPage.tsx:
 * the header KPIs and the large cards, the washwater one included).
 */
export const FLEET_REPORTS: readonly string[] = [
  C.fleetExtraRemovalOfSulfur,
  C.fleetCo2Reduction,
  C.fleetTotalCo2Emission,
  C.fleetMarpolCompliance,
  C.fleetSo2Co2Ratio,
  C.fleetOperationalAvailability,
  C.fleetSfocImpact,
  C.fleetWashwaterCompliance,
];

/**
 * The reports the ship dashboard asks for in its one call (ShipDashboardPage.tsx), the uptime matrix (in hourly or
 * daily duration) and the washwater card's (ShipWashwaterCard.tsx SHIP_WASHWATER_REPORTS) aside.
 */
export const SHIP_REPORTS: readonly string[] = [
  C.shipMarpolCompliance,
  C.shipOperationalAvailability,
  C.shipCo2Reduction,
  C.shipSo2Co2Ratio,
  C.shipExtraRemovalOfSulfur,
  C.shipSfocImpact,
  C.shipTotalCo2Emission,
];
export const SHIP_UPTIME_REPORT: string = C.shipUptime;
export const SHIP_WASHWATER_REPORTS: readonly string[] = [
  C.shipWashwaterCompliance,
  C.shipWashwaterCriteria,
  C.shipOpenLoopInNoDischargeZone,
];
