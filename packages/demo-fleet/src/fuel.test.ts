import { describe, expect, it } from 'vitest';
import { fuelChannelProblems, fuelTypeCode, type FuelChannelState } from '@portal/contracts/fuel-channels';
import { shipParticularsBodySchema, type ShipType } from '@portal/contracts/ship-particulars';
import { dataSourceDefinition } from './formats';
import { channelColumn, generateShipDay } from './generate';
import { DEMO_SHIPS, demoShips, type DemoShip } from './ships';
import { voyageAt } from './voyage';

const DAY_MS = 86_400_000;
const FROM = Date.UTC(2026, 5, 1);
// Long enough for every ship to call at a port (Houston to Santos takes over two weeks).
const DAYS = 36;

interface Minutes {
  sea: { ae: number[]; boiler: number[] };
  port: { ae: number[]; boiler: number[] };
  fuelType: number[];
  sulfur: number[];
}

/** The new channels' samples of five weeks of a ship, split into minutes at sea and in port. */
const cache = new Map<string, Minutes>();
function someWeeks(ship: DemoShip): Minutes {
  const cached = cache.get(ship.key);
  if (cached) return cached;
  const out: Minutes = {
    sea: { ae: [], boiler: [] },
    port: { ae: [], boiler: [] },
    fuelType: [],
    sulfur: [],
  };
  for (let d = 0; d < DAYS; d++) {
    const { samples } = generateShipDay(ship, new Date(FROM + d * DAY_MS));
    const [ae, boiler, fuelType, sulfur] = [
      'AE_FUEL_FLOW',
      'BOILER_FUEL_FLOW',
      'FUEL_TYPE',
      'FUEL_SULFUR',
    ].map((f) => channelColumn(samples, f));
    samples.timestamps.forEach((t, i) => {
      const where = voyageAt(ship, t).phase === 'sea' ? out.sea : out.port;
      where.ae.push(ae![i]!);
      where.boiler.push(boiler![i]!);
      out.fuelType.push(fuelType![i]!);
      out.sulfur.push(sulfur![i]!);
    });
  }
  cache.set(ship.key, out);
  return out;
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const share = (values: number[], test: (v: number) => boolean) => values.filter(test).length / values.length;
const byKey = (key: string) => DEMO_SHIPS.find((s) => s.key === key)!;

describe('the demo fleet logs fuel by consumer', () => {
  it('runs its auxiliary engines at sea and in port, a few hundred kg/h by the size of the ship', () => {
    for (const ship of DEMO_SHIPS) {
      const { sea, port } = someWeeks(ship);
      const atSea = mean(sea.ae);
      // About 4.5 % of the installed power at sea at 215 g/kWh: a feeder's 100 kg/h to a big box ship's 600.
      expect(atSea, ship.name).toBeGreaterThan(0.008 * ship.totalEffectKW);
      expect(atSea, ship.name).toBeLessThan(0.012 * ship.totalEffectKW);
      expect(Math.min(...sea.ae), ship.name).toBeGreaterThan(0);
      if (ship.scenario === 'portOverrun') continue;
      expect(mean(port.ae), ship.name).toBeGreaterThan(atSea);
    }
  });

  it("leaves the port-overrun ship's generators out of the auxiliary flow in port: they are on the scrubbed units' meter then", () => {
    const coral = byKey('coral_navigator');
    expect(someWeeks(coral).port.ae.every((v) => v === 0)).toBe(true);
  });

  it('fires the boiler mostly in port, on and off, and a tanker’s much more (its cargo pumps)', () => {
    for (const ship of DEMO_SHIPS) {
      const { sea, port } = someWeeks(ship);
      const firingInPort = share(port.boiler, (v) => v > 0);
      expect(firingInPort, ship.name).toBeGreaterThan(0.4);
      expect(firingInPort, ship.name).toBeLessThan(0.9);
      expect(
        share(sea.boiler, (v) => v > 0),
        ship.name,
      ).toBeLessThan(0.1);
      const rate = mean(port.boiler.filter((v) => v > 0));
      const expected = (60 + 0.004 * ship.totalEffectKW) * (ship.shipType === 'TANKER' ? 4 : 1);
      expect(rate / expected, ship.name).toBeGreaterThan(0.9);
      expect(rate / expected, ship.name).toBeLessThan(1.1);
    }
  });

  it("logs the fuel on the scrubbed units as the ledger's code: MDO/MGO exactly when the ship burns MGO", () => {
    for (const ship of DEMO_SHIPS) {
      const { fuelType, sulfur } = someWeeks(ship);
      fuelType.forEach((code, i) =>
        expect(code).toBe(sulfur[i]! < 0.1 ? fuelTypeCode('MDO_MGO') : fuelTypeCode('HFO')),
      );
    }
    // The port-overrun ship changes over to MGO in port at every call.
    expect(share(someWeeks(byKey('coral_navigator')).fuelType, (v) => v === 2)).toBeGreaterThan(0.1);
  });
});

describe("the demo ships' mappings", () => {
  it('say the consumer and fuel of each flow: main engine on HFO, MGO-burning generators and boiler, the changing ships by their fuel type channel', () => {
    const fuelOf = (ship: DemoShip) =>
      Object.fromEntries(
        dataSourceDefinition(ship)
          .channelMappings.filter((m) => m.fuel)
          .map((m) => [m.name, m.fuel]),
      );
    expect(fuelOf(byKey('atlantic_meridian'))).toEqual({
      FUEL_FLOW: { consumer: 'MAIN_ENGINE', fuelTypeSource: 'fixed', fuelType: 'HFO', fuelTypeChannel: null },
      AE_FUEL_FLOW: {
        consumer: 'AUX_ENGINE',
        fuelTypeSource: 'fixed',
        fuelType: 'MDO_MGO',
        fuelTypeChannel: null,
      },
      BOILER_FUEL_FLOW: {
        consumer: 'BOILER',
        fuelTypeSource: 'fixed',
        fuelType: 'MDO_MGO',
        fuelTypeChannel: null,
      },
    });
    for (const key of ['coral_navigator', 'gulf_horizon'])
      expect(fuelOf(byKey(key)).FUEL_FLOW, key).toEqual({
        consumer: 'MAIN_ENGINE',
        fuelTypeSource: 'channel',
        fuelType: null,
        fuelTypeChannel: 'FUEL_TYPE',
      });
  });

  it('pass the rules of the channel mapping calls', () => {
    for (const ship of demoShips(12)) {
      const mappings = dataSourceDefinition(ship).channelMappings;
      const states = mappings.map((m): FuelChannelState => ({
        key: m.name,
        id: m.name,
        name: m.name,
        unit: m.unit,
        dataType: m.dataType,
        editable: true,
        consumer: m.fuel?.consumer ?? null,
        fuelTypeSource: m.fuel?.fuelTypeSource ?? null,
        fuelType: m.fuel?.fuelType ?? null,
        fuelTypeChannelId: m.fuel?.fuelTypeChannel ?? null,
        lngEngine: null,
      }));
      expect(fuelChannelProblems(states), ship.name).toEqual([]);
    }
  });
});

describe("the demo ships' particulars", () => {
  /** Gross tonnage per tonne of deadweight, as ships of the type are built. */
  const GT_PER_DWT: Partial<Record<ShipType, [number, number]>> = {
    BULK_CARRIER: [0.5, 0.65],
    TANKER: [0.5, 0.65],
    CONTAINER_SHIP: [0.85, 1],
    GENERAL_CARGO_SHIP: [0.65, 0.85],
  };

  it('are valid and believable for their type', () => {
    for (const ship of demoShips(12)) {
      const { shipType, deadweightTonnes, grossTonnage } = ship;
      expect(shipParticularsBodySchema.safeParse({ shipType, deadweightTonnes, grossTonnage }).success).toBe(
        true,
      );
      const [low, high] = GT_PER_DWT[shipType]!;
      expect(grossTonnage / deadweightTonnes, ship.name).toBeGreaterThan(low);
      expect(grossTonnage / deadweightTonnes, ship.name).toBeLessThan(high);
    }
    expect(new Set(DEMO_SHIPS.map((s) => s.shipType))).toEqual(
      new Set(['BULK_CARRIER', 'CONTAINER_SHIP', 'TANKER', 'GENERAL_CARGO_SHIP']),
    );
  });
});
