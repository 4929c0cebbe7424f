import { describe, expect, it } from 'vitest';
import { PortIndex, type PortArea } from '@portal/contracts/rules/carbon';
import type { FieldSeries } from '../../../storage';
import type { FieldRead } from './readers';
import { trackAndCalls, TRACK_MARGIN_MS } from './track';
import type { LedgerConfig } from './types';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const D0 = Date.UTC(2026, 4, 10);
const A: PortArea = { id: 'NLRTM', name: 'Rotterdam', country: 'NL', latitude: 51.9, longitude: 4.4 };

/** A minute a row: at sea far away, then at Rotterdam from `arrival` to `departure`, then away again. */
function positions(arrival: number, departure: number, from: number, to: number) {
  const lat: number[] = [];
  const lon: number[] = [];
  const ts: number[] = [];
  for (let t = from; t < to; t += MIN) {
    const inPort = t >= arrival && t < departure;
    ts.push(t);
    lat.push(inPort ? A.latitude : 40);
    lon.push(inPort ? A.longitude : -20);
  }
  return { lat: Float64Array.from(lat), lon: Float64Array.from(lon), ts: Float64Array.from(ts) };
}

const config = {
  facilityId: 'ship',
  organizationId: 'org',
  dataFrom: 0,
  dataTo: 0,
  latitudeFieldId: 'lat',
  longitudeFieldId: 'lon',
  speed: null,
  flows: [],
  scrubberFuelFieldId: undefined,
  inputFieldIds: new Set<string>(),
} satisfies LedgerConfig;

function reader(arrival: number, departure: number) {
  const all = positions(arrival, departure, D0 - 10 * DAY, D0 + 10 * DAY);
  const asked: [number, number][] = [];
  const read: FieldRead = (fieldId, a, b) => {
    if (fieldId === 'lat') asked.push([a, b]);
    const kept = [...all.ts.keys()].filter((i) => all.ts[i]! >= a && all.ts[i]! < b);
    const series: FieldSeries = {
      timestamps: Float64Array.from(kept.map((i) => all.ts[i]!)),
      values: Float64Array.from(kept.map((i) => (fieldId === 'lat' ? all.lat : all.lon)[i]!)),
    };
    return Promise.resolve(series);
  };
  return { read, asked };
}

const io = (read: FieldRead) => ({
  read,
  readRaw: () => Promise.resolve(undefined),
  lookup: new PortIndex([A]),
});

describe('track and port calls', () => {
  it('derives the calls from the positions read around the window, which stays when no call reaches over it', async () => {
    const { read, asked } = reader(D0 + 5 * HOUR, D0 + 20 * HOUR);
    const reading = { from: 0, to: 0 };
    const found = (await trackAndCalls(config, { from: D0, to: D0 + DAY }, reading, io(read)))!;
    expect(found.window).toEqual({ from: D0, to: D0 + DAY });
    expect(found.calls).toHaveLength(1);
    expect(found.calls[0]!.arrival).toBeGreaterThanOrEqual(D0 + 5 * HOUR);
    expect(asked).toEqual([[D0 - TRACK_MARGIN_MS, D0 + DAY + TRACK_MARGIN_MS]]);
    expect(reading).toEqual(found.read);
  });

  it('widens the window to a call reaching over its edge, and reads again around the wider window', async () => {
    const { read, asked } = reader(D0 - DAY - 3 * HOUR, D0 + 2 * HOUR);
    const reading = { from: 0, to: 0 };
    const found = (await trackAndCalls(config, { from: D0, to: D0 + DAY }, reading, io(read)))!;
    expect(found.window).toEqual({ from: D0 - 2 * DAY, to: D0 + DAY });
    expect(asked).toHaveLength(2);
    expect(asked[1]).toEqual([D0 - 2 * DAY - TRACK_MARGIN_MS, D0 + DAY + TRACK_MARGIN_MS]);
    expect(found.read).toEqual({ from: D0 - 2 * DAY - TRACK_MARGIN_MS, to: D0 + DAY + TRACK_MARGIN_MS });
  });
});
