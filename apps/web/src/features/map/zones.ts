import { DISCHARGE_ZONES } from '@portal/contracts/discharge-zones';
import { mapZones } from './display';

/** The zones the map draws: the ECAs and the no-discharge zones, as shipped with the product (contracts). */
export const MAP_ZONES = mapZones(DISCHARGE_ZONES);
