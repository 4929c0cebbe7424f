import type { ChannelConsumer, ChannelFuelType, FuelTypeSource } from '@portal/contracts/fuel-channels';
import type { ChannelField } from './channels';
import type { DemoShip } from './ships';

/** What a demo ship's mapping of a fuel flow channel says for the carbon ledger (packages/contracts/src/fuel-channels.ts). */
export interface DemoFuelMapping {
  consumer: ChannelConsumer;
  fuelTypeSource: FuelTypeSource;
  /** With a fixed fuel type. */
  fuelType: ChannelFuelType | null;
  /** With a fuel type channel: the portal name of the channel (of the same data source). */
  fuelTypeChannel: ChannelField | null;
}

/**
 * Whether the ship's scrubbed units change over to MGO (the generator's scenarios): the port-overrun ship's generators
 * burn MGO in port on the scrubbed line, the outage ship switches to MGO when its scrubber fails inside an ECA. Their
 * FUEL_FLOW reads its fuel type from the logged FUEL_TYPE; the others' main engines burn HFO with the scrubber.
 */
export const scrubbedUnitsChangeOver = (ship: Pick<DemoShip, 'scenario'>) =>
  ship.scenario === 'portOverrun' || ship.scenario === 'outage';

/**
 * The ledger's attributes of a demo ship's fuel flow channels; null for the other channels:
 * - FUEL_FLOW (the scrubbed units: the main engine; on the port-overrun ship the generators too while in port, as one
 *   meter measures them): main engine, HFO, or the FUEL_TYPE channel on a ship that changes over to MGO;
 * - AE_FUEL_FLOW (the generators not connected to the scrubber): auxiliary engines on MDO/MGO;
 * - BOILER_FUEL_FLOW: boiler on MDO/MGO.
 */
export function demoFuelMapping(ship: Pick<DemoShip, 'scenario'>, field: string): DemoFuelMapping | null {
  switch (field) {
    case 'FUEL_FLOW':
      return scrubbedUnitsChangeOver(ship)
        ? { consumer: 'MAIN_ENGINE', fuelTypeSource: 'channel', fuelType: null, fuelTypeChannel: 'FUEL_TYPE' }
        : { consumer: 'MAIN_ENGINE', fuelTypeSource: 'fixed', fuelType: 'HFO', fuelTypeChannel: null };
    case 'AE_FUEL_FLOW':
      return { consumer: 'AUX_ENGINE', fuelTypeSource: 'fixed', fuelType: 'MDO_MGO', fuelTypeChannel: null };
    case 'BOILER_FUEL_FLOW':
      return { consumer: 'BOILER', fuelTypeSource: 'fixed', fuelType: 'MDO_MGO', fuelTypeChannel: null };
    default:
      return null;
  }
}
