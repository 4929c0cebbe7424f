import { describe, expect, it } from 'vitest';
import {
  EU_MRV_FUEL_TABLE,
  FUEL_TYPES,
  FUELEU_FUEL_TABLE,
  greenhouseGases,
  IMO_FUELS,
  imoCo2Tonnes,
  LNG_SLIP_PERCENT,
  UK_ETS_FUEL_TABLE,
} from './fuels';

describe('fuel tables per regime', () => {
  it('gives every fuel type a row in every table', () => {
    for (const fuel of FUEL_TYPES) {
      expect(IMO_FUELS[fuel].cf).toBeGreaterThan(0);
      expect(FUELEU_FUEL_TABLE.fuels[fuel].lcvMjPerG).toBeGreaterThan(0);
      expect(EU_MRV_FUEL_TABLE.fuels[fuel].cfCo2).toBe(IMO_FUELS[fuel].cf);
      expect(UK_ETS_FUEL_TABLE.fuels[fuel]).toEqual(EU_MRV_FUEL_TABLE.fuels[fuel]);
    }
  });

  it('weighs CH4 and N2O with each regime its own GWP', () => {
    expect(FUELEU_FUEL_TABLE.gwp).toEqual({ ch4: 25, n2o: 298 });
    expect(EU_MRV_FUEL_TABLE.gwp).toEqual({ ch4: 28, n2o: 265 });
    expect(UK_ETS_FUEL_TABLE.gwp).toEqual({ ch4: 28, n2o: 265 });
  });

  it('counts 100 t of HFO as 311.4 t CO2 under the IMO, and its CO2e with the EU weights', () => {
    expect(imoCo2Tonnes('HFO', 100)).toBeCloseTo(311.4, 9);
    const gases = greenhouseGases(EU_MRV_FUEL_TABLE, 'HFO', 100);
    expect(gases.co2).toBeCloseTo(311.4, 9);
    expect(gases.ch4).toBeCloseTo(0.005, 12);
    expect(gases.n2o).toBeCloseTo(0.018, 12);
    expect(gases.co2e).toBeCloseTo(311.4 + 0.005 * 28 + 0.018 * 265, 9);
  });

  it('turns LNG that slips unburnt into methane, by engine', () => {
    const slip = LNG_SLIP_PERCENT.OTTO_MEDIUM_SPEED / 100;
    const gases = greenhouseGases(UK_ETS_FUEL_TABLE, 'LNG', 100, 'OTTO_MEDIUM_SPEED');
    expect(gases.co2).toBeCloseTo(100 * (1 - slip) * 2.75, 9);
    expect(gases.ch4).toBeCloseTo(100 * slip, 9);
    expect(gases.n2o).toBeCloseTo(100 * (1 - slip) * 0.00011, 12);
    // Without an engine no slip is assumed (the caller must say which engine burns it).
    expect(greenhouseGases(UK_ETS_FUEL_TABLE, 'LNG', 100).ch4).toBe(0);
  });
});
