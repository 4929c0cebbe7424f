/** What other features use of the map (a feature's public entry): the ship's view tabs. */
export { ShipViewTabs } from './ShipViewTabs';
