/** What the dashboards, the ship list and the organization screen use of the compliance events (a feature's public entry). */
export { OpenEventsCard } from './OpenEventsCard';
export { OrganizationEventRulesCard } from './OrganizationEventRulesCard';
export { ShipEventBadge } from './ShipEventBadge';
export { ShipTabs } from './ShipTabs';
export {
  EventBandLegend,
  useShipEventBands,
  useShipPeriodEvents,
  useShipWashwaterBands,
  WashwaterBandLegend,
} from './ship-bands';
