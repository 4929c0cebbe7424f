import { isInEca } from '@portal/contracts/eca';
import { describe, expect, it } from 'vitest';
import { CHANNELS, type ChannelField } from './channels';
import { channelColumn, generateShipDay, type DaySamples } from './generate';
import { DEMO_SHIPS, type DemoShip, type Scenario } from './ships';

const DAY_MS = 86_400_000;
const UNTIL = Date.UTC(2026, 9, 31);

const shipWith = (scenario: Scenario) => DEMO_SHIPS.find((s) => s.scenario === scenario) as DemoShip;

const cache = new Map<string, DaySamples[]>();
/** `days` consecutive UTC days of a ship, ending with UNTIL. */
function lastDays(ship: DemoShip, days: number): DaySamples[] {
  const key = `${ship.key}:${days}`;
  if (!cache.has(key))
    cache.set(
      key,
      Array.from(
        { length: days },
        (_, d) => generateShipDay(ship, new Date(UNTIL - (days - 1 - d) * DAY_MS)).samples,
      ),
    );
  return cache.get(key) as DaySamples[];
}

interface Minute {
  t: number;
  eca: boolean;
  c: Record<ChannelField, number>;
}
function* minutes(days: DaySamples[]): Generator<Minute> {
  for (const day of days) {
    const columns = Object.entries(day.channels);
    // Every channel has one value per timestamp.
    for (let i = 0; i < day.timestamps.length; i++) {
      const c = {} as Record<ChannelField, number>;
      for (const [field, column] of columns) c[field as ChannelField] = column[i]!;
      const t = day.timestamps[i]!;
      yield { t, eca: isInEca(c.LATITUDE, c.LONGITUDE, t), c };
    }
  }
}

/** The DOMAIN's default measurement field calculations, written out plainly for one minute. */
function fields({ eca, c }: Minute) {
  const running = c.SCRUBBER_RUNNING === 1;
  const ratio = running && c.CO2_PCT >= 0.5 && !Number.isNaN(c.SO2_PPM) ? c.SO2_PPM / c.CO2_PCT : null;
  const limit = eca ? 4.3 : 21.7;
  const required = c.FUEL_FLOW > 50 && c.FUEL_SULFUR > (eca ? 0.1 : 0.5);
  const compliant = required ? (running && ratio !== null && ratio <= limit ? 1 : 0) : null;
  const margin = ratio === null ? null : ((limit - ratio) / limit) * 100;
  return {
    running,
    ratio,
    limit,
    required,
    compliant,
    margin,
    scrubberFuel: (c.SCRUBBER_POWER * 200) / 1000,
  };
}

const average = (values: number[]) =>
  values.length ? values.reduce((a, b) => a + b, 0) / values.length : Number.NaN;

/** The DOMAIN's hourly report fields, averaged over the period (hours with fewer than 30 samples give no value). */
function shipKpis(days: DaySamples[]) {
  const hours = new Map<number, Minute[]>();
  for (const m of minutes(days)) {
    const h = Math.floor(m.t / 3_600_000);
    if (!hours.has(h)) hours.set(h, []);
    hours.get(h)?.push(m);
  }
  const compliance: number[] = [];
  const availability: number[] = [];
  const sfoc: number[] = [];
  const margins: number[] = [];
  let noData = 0;
  for (const hour of hours.values()) {
    if (hour.length < 30) {
      noData++;
      continue;
    }
    const f = hour.map(fields);
    const required = f.filter((x) => x.required).length;
    if (required > 0) {
      compliance.push(
        average(f.filter((x) => x.compliant !== null).map((x) => (x.compliant as number) * 100)),
      );
      availability.push((f.filter((x) => x.running).length / required) * 100);
    }
    const fuel = average(hour.map((m) => m.c.FUEL_FLOW));
    if (fuel >= 50) sfoc.push((average(f.map((x) => x.scrubberFuel)) / fuel) * 100);
    const hourMargins = f.flatMap((x) => (x.margin === null ? [] : [x.margin]));
    if (hourMargins.length) margins.push(average(hourMargins));
  }
  return {
    compliance: average(compliance),
    availability: average(availability),
    hoursAbove100: availability.filter((a) => a > 100).length,
    sfoc: average(sfoc),
    optimalShare: margins.filter((m) => m >= 10 && m <= 50).length / margins.length,
    noData,
  };
}

describe('generateShipDay', () => {
  it('gives one sample a minute of every channel for a day', () => {
    const ship = DEMO_SHIPS[1]!;
    const { samples } = generateShipDay(ship, new Date('2026-10-05T15:00:00Z'));
    expect(samples.timestamps).toHaveLength(1440);
    expect(samples.timestamps[0]).toBe(Date.UTC(2026, 9, 5));
    expect(samples.timestamps[1439]).toBe(Date.UTC(2026, 9, 5, 23, 59));
    expect(Object.keys(samples.channels).sort()).toEqual(CHANNELS.map((c) => c.field).sort());
    expect(CHANNELS.length).toBeGreaterThanOrEqual(25);
    for (const field of [
      'FUEL_FLOW',
      'FUEL_SULFUR',
      'ENGINE_LOAD',
      'SO2_PPM',
      'CO2_PCT',
      'SCRUBBER_RUNNING',
      'SCRUBBER_POWER',
      'LATITUDE',
      'LONGITUDE',
      'WASHWATER_PH',
      'WASHWATER_PAH',
      'WASHWATER_TURBIDITY',
    ])
      expect(samples.channels[field], field).toHaveLength(1440);
  });

  it('is deterministic: the same ship and day give the same samples', () => {
    const day = new Date('2026-10-05');
    for (const ship of DEMO_SHIPS) {
      const a = generateShipDay(ship, day).samples;
      const b = generateShipDay(ship, day).samples;
      expect(Buffer.from(a.timestamps.buffer).equals(Buffer.from(b.timestamps.buffer))).toBe(true);
      for (const field of Object.keys(a.channels))
        expect(
          Buffer.from(channelColumn(a, field).buffer).equals(Buffer.from(channelColumn(b, field).buffer)),
        ).toBe(true);
    }
    // and different days differ
    expect(generateShipDay(DEMO_SHIPS[0]!, day).samples.channels.FUEL_FLOW).not.toEqual(
      generateShipDay(DEMO_SHIPS[0]!, new Date('2026-10-06')).samples.channels.FUEL_FLOW,
    );
  });

  it('sails at about 14 knots between ports and stays 1-2 days in port', () => {
    for (const ship of DEMO_SHIPS) {
      const speeds: number[] = [];
      let portRun = 0;
      const portStays: number[] = [];
      for (const m of minutes(lastDays(ship, 60))) {
        if (m.c.SHIP_SPEED < 1) portRun++;
        else {
          if (portRun > 0) portStays.push(portRun / 60);
          portRun = 0;
          if (m.c.SHIP_SPEED > 8) speeds.push(m.c.SHIP_SPEED);
        }
      }
      expect(average(speeds), ship.name).toBeGreaterThan(12.5);
      expect(average(speeds), ship.name).toBeLessThan(15.5);
      const completeStays = portStays.slice(1); // the first may have begun before the window
      expect(completeStays.length, ship.name).toBeGreaterThan(0);
      for (const hours of completeStays) {
        expect(hours, ship.name).toBeGreaterThanOrEqual(10); // the Suez anchorage is the shortest stop
        expect(hours, ship.name).toBeLessThanOrEqual(48);
      }
    }
  });

  it('moves the position by the logged speed', () => {
    const { samples } = generateShipDay(shipWith('none'), new Date('2026-10-05'));
    const lat = channelColumn(samples, 'LATITUDE');
    const lon = channelColumn(samples, 'LONGITUDE');
    const sog = channelColumn(samples, 'SHIP_SPEED');
    let checked = 0;
    // Every channel has one value per timestamp.
    for (let i = 1; i < samples.timestamps.length; i++) {
      if (sog[i]! < 10) continue;
      const dLatNm = (lat[i]! - lat[i - 1]!) * 60;
      const dLonNm = (lon[i]! - lon[i - 1]!) * 60 * Math.cos((lat[i]! * Math.PI) / 180);
      const knots = Math.hypot(dLatNm, dLonNm) * 60;
      expect(Math.abs(knots - sog[i]!)).toBeLessThan(3);
      checked++;
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('keeps the SO2/CO2 ratio under the applicable limit with margin, for ships without excursions', () => {
    for (const ship of DEMO_SHIPS.filter((s) => s.scenario !== 'excursions')) {
      let scrubbing = 0;
      for (const m of minutes(lastDays(ship, 30))) {
        const f = fields(m);
        if (f.ratio === null || m.c.FUEL_SULFUR < 0.5) continue;
        scrubbing++;
        expect(f.ratio, `${ship.name} at ${new Date(m.t).toISOString()}`).toBeLessThan(f.limit * 0.95);
      }
      expect(scrubbing, ship.name).toBeGreaterThan(1000);
    }
  });

  it('burns HSFO while scrubbing, with the scrubber drawing about 1-1.2 % of installed power at service speed', () => {
    for (const ship of DEMO_SHIPS) {
      for (const m of minutes(lastDays(ship, 7))) {
        if (m.c.SCRUBBER_RUNNING !== 1 || m.c.SHIP_SPEED < ship.serviceSpeedKnots - 1) continue;
        expect(m.c.FUEL_SULFUR).toBeGreaterThanOrEqual(2.5);
        expect(m.c.FUEL_SULFUR).toBeLessThanOrEqual(3.0);
        const share = m.c.SCRUBBER_POWER / ship.totalEffectKW;
        expect(share).toBeGreaterThan(0.009);
        expect(share).toBeLessThan(0.0125);
      }
    }
  });
});

describe('scenarios', () => {
  it('outage: the scrubber stays off for days at sea while the ship burns high-sulfur fuel', () => {
    const ship = shipWith('outage');
    let longest = 0;
    let run = 0;
    for (const m of minutes(lastDays(ship, 60))) {
      if (m.c.SCRUBBER_RUNNING === 0 && m.c.FUEL_FLOW > 50 && m.c.FUEL_SULFUR > 2) run++;
      else run = 0;
      longest = Math.max(longest, run);
    }
    expect(longest / 1440).toBeGreaterThan(2);
    expect(longest / 1440).toBeLessThan(4);
  });

  it('excursions: a few short minutes above the applicable limit, not hours', () => {
    const ship = shipWith('excursions');
    let over = 0;
    let scrubbing = 0;
    let longest = 0;
    let run = 0;
    for (const m of minutes(lastDays(ship, 30))) {
      const f = fields(m);
      if (f.ratio === null) continue;
      scrubbing++;
      if (f.ratio > f.limit) {
        over++;
        run++;
      } else run = 0;
      longest = Math.max(longest, run);
    }
    expect(over).toBeGreaterThan(20);
    expect(over / scrubbing).toBeLessThan(0.02);
    expect(longest).toBeLessThanOrEqual(10);
  });

  it('sensor gap: missing rows for some hours and hours with SO2 left blank', () => {
    const days = lastDays(shipWith('sensorGap'), 60);
    const rows = days.reduce((n, d) => n + d.timestamps.length, 0);
    expect(rows).toBeLessThan(60 * 1440 - 3 * 60);
    const shortDay = days.find((d) => d.timestamps.length < 1440);
    expect(shortDay).toBeDefined();
    // the rows left are still whole minutes in order
    const ts = shortDay?.timestamps as Float64Array;
    for (let i = 1; i < ts.length; i++) expect(ts[i]! - ts[i - 1]!).toBeGreaterThanOrEqual(60_000);
    const blankSo2 = days.reduce((n, d) => n + channelColumn(d, 'SO2_PPM').filter(Number.isNaN).length, 0);
    expect(blankSo2).toBeGreaterThan(60);
    for (const ship of DEMO_SHIPS.filter((s) => s.scenario !== 'sensorGap'))
      for (const d of lastDays(ship, 7)) expect(d.timestamps).toHaveLength(1440);
  });

  it('port overrun: hours in which the scrubber ran more minutes than it was required', () => {
    const kpis = shipKpis(lastDays(shipWith('portOverrun'), 30));
    expect(kpis.hoursAbove100).toBeGreaterThan(5);
    expect(kpis.availability).toBeGreaterThan(100);
    for (const ship of DEMO_SHIPS.filter((s) => s.scenario === 'none'))
      expect(shipKpis(lastDays(ship, 7)).hoursAbove100).toBe(0);
  });
});

describe('fleet KPIs of the last month', () => {
  it('look believable: compliance 97-100 %, availability 95-105 %, SFOC impact 1.5-3 %, margins mostly optimal', () => {
    const perShip = DEMO_SHIPS.map((ship) => shipKpis(lastDays(ship, 30)));
    const fleet = {
      compliance: average(perShip.map((k) => k.compliance)),
      availability: average(perShip.map((k) => k.availability)),
      sfoc: average(perShip.map((k) => k.sfoc)),
      optimalShare: average(perShip.map((k) => k.optimalShare)),
    };
    console.log(
      'fleet KPIs, 30 days to 2026-10-31:',
      JSON.stringify(fleet),
      perShip.map((k) => k.compliance.toFixed(1)).join(' '),
    );
    expect(fleet.compliance).toBeGreaterThanOrEqual(97);
    expect(fleet.compliance).toBeLessThanOrEqual(100);
    expect(fleet.availability).toBeGreaterThanOrEqual(95);
    expect(fleet.availability).toBeLessThanOrEqual(105);
    expect(fleet.sfoc).toBeGreaterThanOrEqual(1.5);
    expect(fleet.sfoc).toBeLessThanOrEqual(3);
    expect(fleet.optimalShare).toBeGreaterThan(0.85);
  });
});

// The generator's speed is measured in bench/demo-fleet/run.ts (bench/results/demo-fleet.md), never in a timed test.
