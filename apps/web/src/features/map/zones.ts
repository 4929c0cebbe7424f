import { mapZones } from './display';

/** The zones the map draws: the ECAs and the no-discharge zones, as shipped with the product. */
export const MAP_ZONES = mapZones([]);
