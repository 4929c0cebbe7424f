import { describe, expect, it } from 'vitest';
import { fuelTypesAt, hourlyShares, type FlowChannel } from './fuel';
import { haversineNm } from './geo';
import { buildLedger, cutIntoLegs, sumLegs } from './ledger';
import { derivePortCalls, PortIndex, type PortCall } from './port-calls';
import { prepareTrack, underWayAt } from './track';

const MIN = 60_000;
const HOUR = 60 * MIN;
const T0 = Date.UTC(2026, 2, 1);

function call(arrivalH: number, departureH: number): PortCall {
  return {
    portIndex: 0,
    portId: 'P',
    arrival: T0 + arrivalH * HOUR,
    departure: T0 + departureH * HOUR,
    gapMs: 0,
    openStart: false,
    openEnd: false,
  };
}

describe('legs of a period', () => {
  it('alternates voyages and stays, the open voyages at the ends without a known port', () => {
    const legs = cutIntoLegs([call(2, 5), call(10, 12)], T0, T0 + 24 * HOUR);
    expect(legs.map((l) => [l.kind, (l.start - T0) / HOUR, (l.end - T0) / HOUR])).toEqual([
      ['voyage', 0, 2],
      ['stay', 2, 5],
      ['voyage', 5, 10],
      ['stay', 10, 12],
      ['voyage', 12, 24],
    ]);
    expect(legs[0]!.fromCall).toBeNull();
    expect(legs[2]!.fromCall?.arrival).toBe(T0 + 2 * HOUR);
    expect(legs[2]!.toCall?.arrival).toBe(T0 + 10 * HOUR);
    expect(legs[4]!.toCall).toBeNull();
  });

  it('cuts a stay and a voyage that reach over the period, and names the calls outside it', () => {
    const legs = cutIntoLegs([call(-5, 3), call(30, 40)], T0, T0 + 24 * HOUR);
    expect(legs.map((l) => [l.kind, (l.start - T0) / HOUR, (l.end - T0) / HOUR])).toEqual([
      ['stay', 0, 3],
      ['voyage', 3, 24],
    ]);
    expect(legs[1]!.toCall?.arrival).toBe(T0 + 30 * HOUR);
  });
});

describe('legs cut at midnights', () => {
  it("are each day's legs: a leg across midnight is two, a track leg across it split in proportion", () => {
    // Two days, a fix every 7 minutes (none at midnight), moving 1 nm per fix, a call from 20:00 to 04:00.
    const t: number[] = [];
    const lat: number[] = [];
    const sog: number[] = [];
    for (let x = T0 + 3 * MIN; x < T0 + 48 * HOUR; x += 7 * MIN) {
      t.push(x);
      const inPort = x >= T0 + 20 * HOUR && x <= T0 + 28 * HOUR;
      lat.push(inPort ? 50 : 50 + (x - T0) / (7 * MIN) / 60);
      sog.push(inPort ? 0.2 : 8.6);
    }
    const track = prepareTrack({ timestamps: t, latitude: lat, longitude: t.map(() => 3), sog });
    const arrival = t.find((x) => x >= T0 + 20 * HOUR)!;
    const departure = [...t].reverse().find((x) => x <= T0 + 28 * HOUR)!;
    const calls: PortCall[] = [{ ...call(0, 0), arrival, departure }];
    const channels: FlowChannel[] = [
      {
        id: 'ME',
        consumer: 'MAIN_ENGINE',
        fuel: { kind: 'fixed', fuelType: 'HFO' },
        series: { timestamps: t, values: t.map((x, i) => 500 + (i % 5)) },
      },
      {
        // A sample every minute: one exactly at midnight, which belongs to the day it begins.
        id: 'AE',
        consumer: 'AUX_ENGINE',
        fuel: { kind: 'fixed', fuelType: 'MDO_MGO' },
        series: {
          timestamps: Array.from({ length: 48 * 60 }, (_, m) => T0 + m * MIN),
          values: Array.from({ length: 48 * 60 }, (_, m) => 100 + (m % 7)),
        },
      },
    ];
    const midnight = T0 + 24 * HOUR;
    const cut = buildLedger({ track, calls, channels, from: T0, to: T0 + 48 * HOUR, cuts: [midnight] });
    const perDay = [
      ...buildLedger({ track, calls, channels, from: T0, to: midnight }),
      ...buildLedger({ track, calls, channels, from: midnight, to: T0 + 48 * HOUR }),
    ];
    expect(cut.map((l) => [l.kind, l.start, l.end])).toEqual(perDay.map((l) => [l.kind, l.start, l.end]));
    expect(cut.map((l) => (l.end - T0) / HOUR)).toContain(24);
    // Bit for bit: the same sums in the same order.
    expect(cut.map((l) => [l.distanceNm, l.hoursUnderWay, l.hoursNotUnderWay, l.fuel])).toEqual(
      perDay.map((l) => [l.distanceNm, l.hoursUnderWay, l.hoursNotUnderWay, l.fuel]),
    );
    const whole = sumLegs(buildLedger({ track, calls, channels, from: T0, to: T0 + 48 * HOUR }));
    expect(Math.abs(sumLegs(cut).distanceNm - whole.distanceNm)).toBeLessThan(1e-9);
  });
});

describe('fuel from flow meters, as the dashboard counts it', () => {
  it('gives an hour the average of its non-null values times one hour, and an hour with fewer than 30 samples nothing', () => {
    const t: number[] = [];
    const v: number[] = [];
    // Hour 0: 60 samples of 100 kg/h, 15 of them null. Hour 1: 29 samples. Hour 2: 40 samples of 200 kg/h.
    for (let m = 0; m < 60; m++) {
      t.push(T0 + m * MIN);
      v.push(m % 4 === 0 ? NaN : 100);
    }
    for (let m = 0; m < 29; m++) {
      t.push(T0 + HOUR + m * MIN);
      v.push(500);
    }
    for (let m = 0; m < 40; m++) {
      t.push(T0 + 2 * HOUR + m * MIN);
      v.push(200);
    }
    const { share, coveredHours, uncoveredHours } = hourlyShares({ timestamps: t, values: v });
    expect(coveredHours).toEqual([T0, T0 + 2 * HOUR]);
    expect(uncoveredHours).toEqual([T0 + HOUR]);
    const kg = v.reduce((s, value, i) => s + (share[i]! > 0 ? value * share[i]! : 0), 0);
    expect(kg).toBeCloseTo(100 + 200, 9);

    const channel: FlowChannel = {
      id: 'ME',
      consumer: 'MAIN_ENGINE',
      fuel: { kind: 'fixed', fuelType: 'HFO' },
      series: { timestamps: t, values: v },
    };
    const track = prepareTrack({ timestamps: [T0], latitude: [50], longitude: [0], sog: [10] });
    const legs = buildLedger({ track, calls: [], channels: [channel], from: T0, to: T0 + 4 * HOUR });
    const totals = sumLegs(legs);
    expect(totals.fuel).toHaveLength(1);
    expect(totals.fuel[0]).toMatchObject({ consumer: 'MAIN_ENGINE', fuelType: 'HFO', kgNotUnderWay: 0 });
    expect(totals.fuel[0]!.kg).toBeCloseTo(300, 9);
    // Hour 1 (29 samples) and hour 3 (none) give no value.
    expect(totals.hoursWithoutFuelData.ME).toBeCloseTo(2, 9);
  });

  it('splits an hour between the stay and the voyage by its samples', () => {
    const t: number[] = [];
    const v: number[] = [];
    for (let m = 0; m < 60; m++) {
      t.push(T0 + m * MIN);
      v.push(m < 30 ? 60 : 120);
    }
    const channel: FlowChannel = {
      id: 'AE',
      consumer: 'AUX_ENGINE',
      fuel: { kind: 'fixed', fuelType: 'MDO_MGO' },
      series: { timestamps: t, values: v },
    };
    const stay: PortCall = { ...call(-2, 0), departure: T0 + 29 * MIN };
    const track = prepareTrack({ timestamps: [T0], latitude: [50], longitude: [0], sog: [0] });
    const legs = buildLedger({ track, calls: [stay], channels: [channel], from: T0, to: T0 + HOUR });
    expect(legs.map((l) => l.kind)).toEqual(['stay', 'voyage']);
    expect(legs[0]!.fuel[0]!.kg).toBeCloseTo(30, 9);
    expect(legs[1]!.fuel[0]!.kg).toBeCloseTo(60, 9);
    expect(legs[0]!.hoursWithoutFuelData.AE! + legs[1]!.hoursWithoutFuelData.AE!).toBe(0);
  });

  it('takes the fuel type from a fuel-type channel or from the change-overs, and keeps fuel of unknown type apart', () => {
    const times = [0, 10, 20, 30, 40].map((m) => T0 + m * MIN);
    expect(
      fuelTypesAt({ kind: 'series', timestamps: [T0 + 10 * MIN, T0 + 30 * MIN], values: [0, 2] }, times),
    ).toEqual(['UNKNOWN', 'HFO', 'HFO', 'MDO_MGO', 'MDO_MGO']);
    expect(fuelTypesAt({ kind: 'series', timestamps: [T0], values: [9] }, times)[0]).toBe('UNKNOWN');
    const changeOvers = [
      { at: T0 + 25 * MIN, fuelType: 'HFO' as const },
      { at: T0 + 5 * MIN, fuelType: 'LFO' as const },
    ];
    expect(fuelTypesAt({ kind: 'change-overs', changeOvers }, times)).toEqual([
      'UNKNOWN',
      'LFO',
      'LFO',
      'HFO',
      'HFO',
    ]);
    expect(fuelTypesAt({ kind: 'change-overs', changeOvers, before: 'MDO_MGO' }, times)[0]).toBe('MDO_MGO');
  });
});

describe('distance and hours under way', () => {
  const index = new PortIndex([{ id: 'A', name: 'A', latitude: 50, longitude: 0 }]);

  it('sums the great circles between fixes under way, crosses a gap in a straight line and leaves drifting out', () => {
    const t: number[] = [];
    const lat: number[] = [];
    const lon: number[] = [];
    const sog: number[] = [];
    const push = (m: number, la: number, lo: number, s: number) => {
      t.push(T0 + m * MIN);
      lat.push(la);
      lon.push(lo);
      sog.push(s);
    };
    // 3 h at the port; 2 h sailing north at 12 kn; 3 h drifting at 0.5 kn; a 2-hour gap of rows while sailing
    // on; 1 h more sailing.
    let m = 0;
    for (; m < 180; m++) push(m, 50, 0, 0.1);
    let la = 50;
    for (; m < 300; m++) push(m, (la += 0.2 / 60), 0, 12);
    for (; m < 480; m++) push(m, (la += 0.5 / 60 / 60), 0, 0.5);
    const beforeGap = la;
    la += (2 * 12) / 60;
    m += 120;
    for (let k = 0; k < 60; k++, m++) push(m, (la += 0.2 / 60), 0, 12);
    const track = prepareTrack({ timestamps: t, latitude: lat, longitude: lon, sog });
    const calls = derivePortCalls(track, index);
    expect(calls).toHaveLength(1);
    const legs = buildLedger({ track, calls, channels: [], from: T0, to: T0 + 12 * HOUR });
    const voyage = legs[1]!;
    expect(voyage.kind).toBe('voyage');
    // Sailing: 120 + 60 fixes a minute apart plus the gap's straight line (24 nm in 2 h: under way).
    const gapNm = haversineNm(beforeGap, 0, beforeGap + 24 / 60 + 0.2 / 60, 0);
    expect(voyage.distanceNm).toBeCloseTo(
      120 * haversineNm(0, 0, 0.2 / 60, 0) + gapNm + 59 * haversineNm(0, 0, 0.2 / 60, 0),
      6,
    );
    expect(voyage.hoursUnderWay).toBeCloseTo(2 + 2 + 1 / 60 + 59 / 60, 9);
    expect(voyage.hoursNotUnderWay).toBeCloseTo(3, 9);
    // The period runs to 12:00; the last fix is at 09:59.
    expect(voyage.hoursWithoutPosition).toBeCloseTo(12 - (t.at(-1)! - T0) / HOUR, 9);
    expect(underWayAt(track, T0 + 400 * MIN)).toBe(false);
    expect(underWayAt(track, T0 + 500 * MIN)).toBe(true);
  });

  it('judges a gap by its mean speed: a ship stopped before and after it that moved in between was under way', () => {
    // Stopped at one anchorage, 3 h without rows, stopped at another 30 nm north: 10 kn across the gap.
    const t = [0, 1, 2, 182, 183, 184].map((m) => T0 + m * MIN);
    const lat = [50, 50, 50, 50.5, 50.5, 50.5];
    const track = prepareTrack({
      timestamps: t,
      latitude: lat,
      longitude: [0, 0, 0, 0, 0, 0],
      sog: [0.1, 0.1, 0.1, 0.1, 0.1, 0.1],
    });
    expect(track.legGap[3]).toBe(1);
    expect(track.legUnderWay[3]).toBe(1);
    const totals = sumLegs(buildLedger({ track, calls: [], channels: [], from: T0, to: T0 + 4 * HOUR }));
    expect(totals.distanceNm).toBeCloseTo(haversineNm(50, 0, 50.5, 0), 9);
    expect(totals.hoursUnderWay).toBeCloseTo(3, 9);
    expect(totals.hoursNotUnderWay).toBeCloseTo(4 / 60, 9);
  });

  it('adds up two periods to the same totals as the whole (re-executing a part changes nothing)', () => {
    const t: number[] = [];
    const lat: number[] = [];
    const lon: number[] = [];
    const sog: number[] = [];
    const flow: number[] = [];
    let la = 50;
    for (let m = 0; m < 48 * 60; m++) {
      const atPort = m < 300 || (m >= 1500 && m < 1800);
      if (!atPort) la += 0.2 / 60;
      t.push(T0 + m * MIN);
      lat.push(m >= 1500 && m < 1800 ? 51 : m < 300 ? 50 : la);
      lon.push(0);
      sog.push(atPort ? 0.1 : 12);
      flow.push(atPort ? 50 : 900 + (m % 7));
    }
    const ports = new PortIndex([
      { id: 'A', name: 'A', latitude: 50, longitude: 0 },
      { id: 'B', name: 'B', latitude: 51, longitude: 0 },
    ]);
    const track = prepareTrack({ timestamps: t, latitude: lat, longitude: lon, sog });
    const calls = derivePortCalls(track, ports);
    const channels: FlowChannel[] = [
      {
        id: 'ME',
        consumer: 'MAIN_ENGINE',
        fuel: { kind: 'fixed', fuelType: 'HFO' },
        series: { timestamps: t, values: flow },
      },
    ];
    const whole = sumLegs(buildLedger({ track, calls, channels, from: T0, to: T0 + 48 * HOUR }));
    const first = sumLegs(buildLedger({ track, calls, channels, from: T0, to: T0 + 21 * HOUR }));
    const second = sumLegs(buildLedger({ track, calls, channels, from: T0 + 21 * HOUR, to: T0 + 48 * HOUR }));
    expect(first.distanceNm + second.distanceNm).toBeCloseTo(whole.distanceNm, 9);
    expect(first.hoursUnderWay + second.hoursUnderWay).toBeCloseTo(whole.hoursUnderWay, 9);
    expect(first.fuel[0]!.kg + second.fuel[0]!.kg).toBeCloseTo(whole.fuel[0]!.kg, 6);
    expect(first.fuel[0]!.kgNotUnderWay + second.fuel[0]!.kgNotUnderWay).toBeCloseTo(
      whole.fuel[0]!.kgNotUnderWay,
      6,
    );
  });
});
