import { describe, expect, it } from 'vitest';
import { buildPortIndex, portAt, type PortShape } from './port-at';

interface TestPort extends PortShape {
  name: string;
}

const port = (name: string, lat: number, lon: number, extra: Partial<TestPort> = {}): TestPort => ({
  name,
  locode: name.length === 5 ? name : null,
  lat,
  lon,
  radiusNm: 5,
  ...extra,
});

/** A position `nm` nautical miles east of a point (along its parallel). */
const east = (lat: number, lon: number, nm: number) => lon + nm / 60 / Math.cos((lat * Math.PI) / 180);

describe('portAt', () => {
  const rotterdam = port('NLRTM', 51.9, 4.48);
  const antwerp = port('BEANR', 51.22, 4.4);
  const index = buildPortIndex([rotterdam, antwerp]);

  it('finds the port whose 5 nm circle holds the position, and none at sea', () => {
    expect(portAt(index, 51.9, 4.48)?.name).toBe('NLRTM');
    expect(portAt(index, 51.9, east(51.9, 4.48, 4.9))?.name).toBe('NLRTM');
    expect(portAt(index, 51.9, east(51.9, 4.48, 5.1))).toBeNull();
    expect(portAt(index, 51.9 + 4.9 / 60, 4.48)?.name).toBe('NLRTM');
    expect(portAt(index, 51.9 - 5.1 / 60, 4.48)).toBeNull();
    expect(portAt(index, 40, -30)).toBeNull();
  });

  it('takes the nearest point where circles overlap', () => {
    const near = buildPortIndex([port('AAAAA', 0, 0), port('BBBBB', 0, 0.1)]);
    expect(portAt(near, 0, 0.04)?.name).toBe('AAAAA');
    expect(portAt(near, 0, 0.06)?.name).toBe('BBBBB');
  });

  it("puts an organization's addition before the reference, and its correction in the reference's place", () => {
    const quay = port('Own quay', 51.9, 4.6, { organization: true, radiusNm: 1 });
    // Moved 6 nm north, with a radius of 8 nm.
    const corrected = port('NLRTM', 52.0, 4.48, { organization: true, radiusNm: 8 });
    const own = buildPortIndex([rotterdam, antwerp, quay, corrected]);
    expect(portAt(own, 51.9, 4.6)?.name).toBe('Own quay');
    expect(portAt(own, 51.9, 4.48)).toBe(corrected);
    expect(portAt(own, 52.12, 4.48)).toBe(corrected);
    // Inside the reference circle of NLRTM but outside the corrected one: the reference is not used any more.
    expect(portAt(own, 51.83, 4.48)).toBeNull();
    expect(portAt(index, 51.83, 4.48)).toBe(rotterdam);
  });

  it('uses a correction only while it is active, and the reference port outside that time', () => {
    const from = Date.parse('2025-01-01T00:00:00Z');
    const until = Date.parse('2025-07-01T00:00:00Z');
    const moved = port('NLRTM', 52.5, 4.0, { organization: true, activeFromMs: from, activeUntilMs: until });
    const own = buildPortIndex([rotterdam, moved]);
    expect(portAt(own, 51.9, 4.48, from - 1)).toBe(rotterdam);
    expect(portAt(own, 51.9, 4.48, from)).toBeNull();
    expect(portAt(own, 52.5, 4.0, from)).toBe(moved);
    expect(portAt(own, 52.5, 4.0, until)).toBeNull();
    expect(portAt(own, 51.9, 4.48, until)).toBe(rotterdam);
  });

  it("holds a position inside an organization's polygon, which beats a circle", () => {
    const basin = port('Basin', 51.9, 4.3, {
      organization: true,
      polygon: [
        [4.2, 51.85],
        [4.4, 51.85],
        [4.4, 51.95],
        [4.2, 51.95],
        [4.2, 51.85],
      ],
    });
    const circle = port('Circle', 51.9, 4.38, { organization: true, radiusNm: 3 });
    const own = buildPortIndex([rotterdam, basin, circle]);
    expect(portAt(own, 51.9, 4.39)).toBe(basin);
    expect(portAt(own, 51.9, 4.41)).toBe(circle);
    expect(portAt(own, 51.8, 4.3)).toBeNull();
  });

  it('works across the antimeridian and near a pole', () => {
    const suva = port('FJSUV', -18.13, 179.99);
    const north = port('North', 89.95, 10, { radiusNm: 10 });
    const own = buildPortIndex([suva, north]);
    expect(portAt(own, -18.13, -179.98)).toBe(suva);
    expect(portAt(own, -18.13, 179.93)).toBe(suva);
    expect(portAt(own, 89.97, -170)).toBe(north);
  });

  it('gives no port for a position that is not a number', () => {
    expect(portAt(index, Number.NaN, 4.48)).toBeNull();
  });
});
