/** What the dashboards, the ship list, the organization screen and the fuel records use of the compliance events (a feature's public entry). */
export { OpenEventsCard } from './OpenEventsCard';
export { OrganizationEventRulesCard } from './OrganizationEventRulesCard';
export { ShipEventBadge } from './ShipEventBadge';
export { ShipTabs } from './ShipTabs';
export { useRefreshRecordBook } from './events-api';
export {
  EventBandLegend,
  useShipEventBands,
  useShipPeriodEvents,
  useShipWashwaterBands,
  WashwaterBandLegend,
} from './ship-bands';
