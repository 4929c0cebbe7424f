import { describe, expect, it } from 'vitest';
import { EARTH_RADIUS_NM } from './carbon/geo';
import {
  bannedModes,
  clearanceOf,
  destinationPoint,
  finalCourse,
  inMinutesText,
  initialCourse,
  motionOf,
  projectTrack,
  zoneEntries,
  zonesAt,
  zoneWarningText,
  type Fix,
  type Motion,
} from './zone-approach';

/** Nautical miles in one degree of a great circle on the portal's sphere (60.04 nm). */
const NM_PER_DEGREE = (EARTH_RADIUS_NM * Math.PI) / 180;

describe('destinationPoint (great circle, known geometries)', () => {
  it('north along a meridian: one degree of arc is one degree of latitude', () => {
    const [lat, lon] = destinationPoint(10, 20, 0, NM_PER_DEGREE);
    expect(lat).toBeCloseTo(11, 9);
    expect(lon).toBeCloseTo(20, 9);
  });

  it('east along the equator: a quarter of the circumference is 90 degrees of longitude', () => {
    const [lat, lon] = destinationPoint(0, 0, 90, (Math.PI / 2) * EARTH_RADIUS_NM);
    expect(lat).toBeCloseTo(0, 9);
    expect(lon).toBeCloseTo(90, 9);
  });

  it('over the pole: 20 degrees north from 80°N comes down the other meridian', () => {
    const [lat, lon] = destinationPoint(80, 0, 0, 20 * NM_PER_DEGREE);
    expect(lat).toBeCloseTo(80, 9);
    expect(Math.abs(lon)).toBeCloseTo(180, 9);
  });

  it('a great circle heading east from 60°N bends south of the parallel (it is not a rhumb line)', () => {
    const [lat] = destinationPoint(60, 0, 90, 600);
    expect(lat).toBeLessThan(60);
    // The start is the great circle's vertex; by Napier's rule for the right spherical triangle with the pole,
    // sin φ2 = sin φ1 cos δ: 600 nm on is 58.527°N.
    const delta = 600 / EARTH_RADIUS_NM;
    expect(lat).toBeCloseTo((Math.asin(Math.sin(Math.PI / 3) * Math.cos(delta)) * 180) / Math.PI, 9);
    expect(lat).toBeCloseTo(58.527, 3);
  });

  it('across the antimeridian the longitude stays within -180..180', () => {
    const [, lon] = destinationPoint(0, 179.5, 90, NM_PER_DEGREE);
    expect(lon).toBeCloseTo(-179.5, 9);
  });

  it('goes and comes back: the distance and the course of the answer are the ones asked', () => {
    const from: [number, number] = [1.1, 103.2];
    const to = destinationPoint(from[0], from[1], 63, 25);
    expect(initialCourse(from[0], from[1], to[0], to[1])).toBeCloseTo(63, 6);
    const back = destinationPoint(
      to[0],
      to[1],
      (finalCourse(from[0], from[1], to[0], to[1]) + 180) % 360,
      25,
    );
    expect(back[0]).toBeCloseTo(from[0], 9);
    expect(back[1]).toBeCloseTo(from[1], 9);
  });
});

describe('initialCourse', () => {
  it('the cardinal courses', () => {
    expect(initialCourse(0, 0, 1, 0)).toBeCloseTo(0, 9);
    expect(initialCourse(0, 0, 0, 1)).toBeCloseTo(90, 9);
    expect(initialCourse(0, 0, -1, 0)).toBeCloseTo(180, 9);
    expect(initialCourse(0, 0, 0, -1)).toBeCloseTo(270, 9);
  });

  it('London to New York leaves on about 288° (the textbook great circle)', () => {
    // 51.5074°N 0.1278°W to 40.7128°N 74.0060°W: the initial course is 288.3° (movable-type.co.uk's calculator).
    expect(initialCourse(51.5074, -0.1278, 40.7128, -74.006)).toBeCloseTo(288.3, 1);
  });
});

const minutes = (n: number) => n * 60_000;
const T0 = Date.UTC(2026, 10, 28, 12, 0);

/** Fixes every minute of a ship steaming from (lat, lon) on a course at a speed. */
function steaming(lat: number, lon: number, courseDeg: number, speedKn: number, count: number): Fix[] {
  return Array.from({ length: count }, (_, i) => {
    const [la, lo] = destinationPoint(lat, lon, courseDeg, (speedKn * i) / 60);
    return { t: T0 + minutes(i), lat: la, lon: lo };
  });
}

describe('motionOf', () => {
  it('takes course and speed over ground from the last 15 minutes of positions', () => {
    const m = motionOf(steaming(1.0, 103.2, 45, 13, 30))!;
    expect(m.speedKn).toBeCloseTo(13, 6);
    // The great circle's course turns by Δλ sin φ along the way: a thousandth of a degree here.
    expect(m.courseDeg).toBeCloseTo(45, 2);
    expect(m.at).toBe(T0 + minutes(29));
  });

  it('no motion for a ship stopped, with one position, or with positions too close in time', () => {
    expect(motionOf(steaming(1, 103, 0, 0.2, 30))).toBeNull();
    expect(motionOf(steaming(1, 103, 0, 12, 1))).toBeNull();
    expect(motionOf(steaming(1, 103, 0, 12, 2))).toBeNull();
    expect(motionOf([])).toBeNull();
  });

  it('skips positions without a value', () => {
    const fixes = steaming(1, 103, 90, 10, 20);
    fixes.push({ t: T0 + minutes(20), lat: NaN, lon: NaN });
    expect(motionOf(fixes)!.at).toBe(T0 + minutes(19));
  });
});

describe('projectTrack', () => {
  it('a point every 5 minutes to the horizon, at the speed along the course', () => {
    const motion: Motion = { at: T0, lat: 0, lon: 0, courseDeg: 90, speedKn: 12 };
    const track = projectTrack(motion, 120);
    expect(track).toHaveLength(25);
    expect(track[0]!.position).toEqual([0, 0]);
    // 12 knots for 2 h: 24 nm east along the equator.
    expect(track[24]!.minutes).toBe(120);
    expect(track[24]!.position[1]).toBeCloseTo(24 / NM_PER_DEGREE, 9);
  });
});

describe('bannedModes', () => {
  const state = { scrubberMode: null, scrubberRunning: null, fuelSulfur: null, fuelFlow: null };
  it('open loop while the scrubber runs', () => {
    expect(bannedModes({ ...state, scrubberMode: 1, scrubberRunning: 1 })).toEqual(['open-loop']);
    expect(bannedModes({ ...state, scrubberMode: 1 })).toEqual(['open-loop']);
    expect(bannedModes({ ...state, scrubberMode: 0, scrubberRunning: 1 })).toEqual([]);
    expect(bannedModes({ ...state, scrubberMode: 1, scrubberRunning: 0 })).toEqual([]);
  });
  it('high-sulfur fuel with the scrubber off, while fuel flows', () => {
    expect(bannedModes({ ...state, fuelSulfur: 2.5, scrubberRunning: 0 })).toEqual(['high-sulfur']);
    expect(bannedModes({ ...state, fuelSulfur: 2.5, scrubberRunning: 0, fuelFlow: 10 })).toEqual([]);
    expect(bannedModes({ ...state, fuelSulfur: 2.5, scrubberRunning: 1 })).toEqual([]);
    // 0.10 % m/m is the ECA's limit itself (MARPOL Annex VI 14.4): compliant fuel.
    expect(bannedModes({ ...state, fuelSulfur: 0.1, scrubberRunning: 0 })).toEqual([]);
  });
});

describe('zoneEntries', () => {
  // East along 1.25°N from 103.3°E: Singapore port waters begin at 103.6°E on that parallel (discharge-zones.ts).
  const west = (speedKn: number): Motion => ({ at: T0, lat: 1.25, lon: 103.3, courseDeg: 90, speedKn });
  const edgeNm = 0.3 * NM_PER_DEGREE * Math.cos(1.25 * (Math.PI / 180));

  it('an open-loop ship at 13 knots enters Singapore port waters when it has run the distance to the edge', () => {
    const [entry, ...rest] = zoneEntries(west(13), ['open-loop'], 120);
    expect(rest).toEqual([]);
    expect(entry!.zone.name).toBe('Singapore port waters');
    expect(entry!.zone.kind).toBe('no-discharge');
    expect(entry!.minutes).toBeCloseTo((edgeNm / 13) * 60, 0);
    expect(entry!.at).toBe(T0 + entry!.minutes * 60_000);
    expect(entry!.position[1]).toBeCloseTo(103.6, 2);
  });

  it('nothing beyond the horizon, nothing for a mode the zone does not ban, nothing when heading away', () => {
    expect(zoneEntries(west(13), ['open-loop'], 60)).toEqual([]);
    expect(zoneEntries(west(13), ['high-sulfur'], 120)).toEqual([]);
    expect(zoneEntries({ ...west(13), courseDeg: 270 }, ['open-loop'], 120)).toEqual([]);
    expect(zoneEntries(west(13), [], 120)).toEqual([]);
  });

  it('a zone the ship is inside already is no warning', () => {
    const inside: Motion = { at: T0, lat: 1.25, lon: 103.8, courseDeg: 90, speedKn: 13 };
    expect(zoneEntries(inside, ['open-loop'], 120)).toEqual([]);
    expect(zonesAt([1.25, 103.8], T0)).toEqual([{ kind: 'no-discharge', name: 'Singapore port waters' }]);
  });

  it('an ECA for high-sulfur fuel: north from Ushant into the English Channel approaches', () => {
    // The North Sea ECA's Channel approaches begin at 48°30'N east of 5°W (eca.ts; about 48.47°N at 4.5°W).
    const entries = zoneEntries(
      { at: T0, lat: 48.1, lon: -4.5, courseDeg: 0, speedKn: 15 },
      ['high-sulfur'],
      120,
    );
    expect(entries.map((e) => [e.zone.kind, e.zone.name])).toEqual([['eca', 'North Sea']]);
    expect(entries[0]!.minutes).toBeGreaterThan(0);
    expect(entries[0]!.minutes).toBeLessThan(120);
  });
});

describe('texts', () => {
  it('the warning in the product tone', () => {
    expect(
      zoneWarningText({
        mode: 'open-loop',
        zoneKind: 'no-discharge',
        zoneName: 'Singapore port waters',
        minutes: 40,
      }),
    ).toBe(
      'open-loop discharge banned in Singapore port waters in 40 min: switch to closed loop or to compliant fuel',
    );
    expect(
      zoneWarningText({ mode: 'high-sulfur', zoneKind: 'eca', zoneName: 'Baltic Sea', minutes: 70 }),
    ).toBe(
      'high-sulfur fuel without the scrubber banned in the Baltic Sea ECA in 1 h 10 min: start the scrubber or switch to compliant fuel',
    );
  });
  it('minutes', () => {
    expect(inMinutesText(0.4)).toBe('within a minute');
    expect(inMinutesText(40)).toBe('in 40 min');
    expect(inMinutesText(60)).toBe('in 1 h');
    expect(inMinutesText(125)).toBe('in 2 h 5 min');
  });
});

describe('clearanceOf', () => {
  const warning = {
    zoneKind: 'no-discharge' as const,
    zoneName: 'Singapore port waters',
    mode: 'open-loop' as const,
  };
  const motion: Motion = { at: T0, lat: 1.25, lon: 103.3, courseDeg: 90, speedKn: 13 };
  const entries = zoneEntries(motion, ['open-loop'], 120);
  it('holds while the track still enters the zone in the banned mode', () => {
    expect(clearanceOf(warning, { insideZones: [], modes: ['open-loop'], motion, entries })).toBeNull();
  });
  it('cleared when the ship arrives, switches mode, stops or turns away', () => {
    const inside = [{ kind: 'no-discharge' as const, name: 'Singapore port waters' }];
    expect(clearanceOf(warning, { insideZones: inside, modes: ['open-loop'], motion, entries })).toBe(
      'arrived',
    );
    expect(clearanceOf(warning, { insideZones: [], modes: [], motion, entries })).toBe('mode-changed');
    expect(clearanceOf(warning, { insideZones: [], modes: ['open-loop'], motion: null, entries: [] })).toBe(
      'no-position',
    );
    expect(clearanceOf(warning, { insideZones: [], modes: ['open-loop'], motion, entries: [] })).toBe(
      'turned-away',
    );
  });
});
