import { describe, expect, it } from 'vitest';
import {
  buildLedger,
  derivePortCalls,
  PortIndex,
  prepareTrack,
  sumLegs,
  type FlowChannel,
  type PortArea,
} from '@portal/contracts/rules/carbon';
import { DAY_MS, ledgerSegments, sumSegments } from './ledger-segments';

const MIN = 60_000;
const HOUR = 60 * MIN;
const T0 = Date.UTC(2026, 4, 1);

const A: PortArea = { id: 'NLRTM', name: 'Rotterdam', country: 'NL', latitude: 51.9, longitude: 4.4 };
const B: PortArea = { id: 'BEANR', name: 'Antwerp', country: 'BE', latitude: 51.25, longitude: 4.3 };

/** Four days, a minute a row: two days at Rotterdam, a passage with a 3 h gap, a day and a half at Antwerp. */
function rows() {
  const out: { t: number; lat: number; lon: number; sog: number; me: number; ae: number; code: number }[] =
    [];
  let t = T0 + 7 * HOUR;
  const stay = (p: PortArea, hours: number, code: number) => {
    for (let i = 0; i < hours * 60; i++, t += MIN)
      out.push({ t, lat: p.latitude, lon: p.longitude, sog: 0.2, me: i % 97 === 0 ? NaN : 0, ae: 180, code });
  };
  stay(A, 41, 2);
  const n = 10 * 60;
  for (let i = 1; i <= n; i++, t += MIN) {
    if (i > 200 && i <= 380) continue;
    const f = i / n;
    out.push({
      t,
      lat: A.latitude + f * (B.latitude - A.latitude),
      lon: A.longitude + f * (B.longitude - A.longitude),
      sog: 4,
      me: 900 + (i % 7),
      ae: 150,
      code: i < 300 ? 2 : 0,
    });
  }
  stay(B, 36, 0);
  return out;
}

describe('the ledger pieces', () => {
  const r = rows();
  const timestamps = r.map((x) => x.t);
  const track = prepareTrack({
    timestamps,
    latitude: r.map((x) => x.lat),
    longitude: r.map((x) => x.lon),
    sog: r.map((x) => x.sog),
  });
  const calls = derivePortCalls(track, new PortIndex([A, B]));
  const channels: FlowChannel[] = [
    {
      id: 'ME',
      consumer: 'MAIN_ENGINE',
      fuel: { kind: 'fixed', fuelType: 'HFO' },
      series: { timestamps, values: r.map((x) => x.me) },
    },
    {
      id: 'AE',
      consumer: 'AUX_ENGINE',
      fuel: { kind: 'series', timestamps, values: r.map((x) => x.code) },
      series: { timestamps, values: r.map((x) => x.ae) },
    },
  ];
  const dataFrom = timestamps[0]!;
  const dataTo = timestamps.at(-1)!;
  const all = ledgerSegments({
    track,
    calls,
    channels,
    scrubber: null,
    from: T0,
    to: T0 + 5 * DAY_MS,
    dataFrom,
    dataTo,
  });

  it('cut the time at midnights and at the calls, and add up to the ledger of the whole time', () => {
    expect(calls.map((c) => c.portId)).toEqual(['NLRTM', 'BEANR']);
    const from = Math.floor(dataFrom / HOUR) * HOUR;
    const to = Math.floor(dataTo / HOUR) * HOUR + HOUR;
    expect(all[0]!.start).toBe(from);
    expect(all.at(-1)!.end).toBe(to);
    for (let i = 1; i < all.length; i++) expect(all[i]!.start).toBe(all[i - 1]!.end);
    for (const s of all) expect(Math.floor(s.start / DAY_MS)).toBe(Math.floor((s.end - 1) / DAY_MS));
    const whole = sumLegs(buildLedger({ track, calls, channels, from, to }));
    const sum = sumSegments(all);
    const close = (a: number, b: number) => expect(Math.abs(a - b)).toBeLessThanOrEqual(Math.abs(b) * 1e-9);
    close(sum.distanceNm, whole.distanceNm);
    close(sum.hoursUnderWay, whole.hoursUnderWay);
    close(sum.hoursNotUnderWay, whole.hoursNotUnderWay);
    for (const f of whole.fuel) {
      const line = sum.fuel.find((x) => x.consumer === f.consumer && x.fuelType === f.fuelType)!;
      close(line.kg, f.kg);
      close(line.kgNotUnderWay, f.kgNotUnderWay);
    }
    expect(sum.fuel.map((f) => `${f.consumer} ${f.fuelType}`)).toEqual([
      'MAIN_ENGINE HFO',
      'AUX_ENGINE HFO',
      'AUX_ENGINE MDO_MGO',
    ]);
    // CO2 under the IMO's Cf of each fuel.
    close(
      sum.co2g,
      sum.fuel.reduce((s, f) => s + f.kg * 1000 * (f.fuelType === 'HFO' ? 3.114 : 3.206), 0),
    );
  });

  it('of some days are the same pieces as those of those days in the whole time, to the last bit', () => {
    const day2 = Math.floor(dataFrom / DAY_MS) * DAY_MS + 2 * DAY_MS;
    const some = ledgerSegments({
      track,
      calls,
      channels,
      scrubber: null,
      from: day2,
      to: day2 + DAY_MS,
      dataFrom,
      dataTo,
    });
    expect(some.length).toBeGreaterThan(1);
    expect(some).toEqual(all.filter((s) => s.day === day2));
  });
});
