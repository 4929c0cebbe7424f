/** What the dashboards and the ship list use of the compliance events (a feature's public entry). */
export { OpenEventsCard } from './OpenEventsCard';
export { ShipEventBadge } from './ShipEventBadge';
export {
  EventBandLegend,
  useShipEventBands,
  useShipPeriodEvents,
  useShipWashwaterBands,
  WashwaterBandLegend,
} from './ship-bands';
