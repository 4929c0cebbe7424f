import { describe, expect, it } from 'vitest';
import { buildTrack, lastPosition, valuesAt, type PositionColumns } from './track';

const MIN = 60_000;
const T0 = Date.parse('2026-03-01T00:00:00Z');

/** A ship sailing east along 50° N, one position a minute, longitude = minute / 1000. */
function sailing(minutes: number, mode?: (i: number) => number): PositionColumns {
  const timestamps = Float64Array.from({ length: minutes }, (_, i) => T0 + i * MIN);
  return {
    timestamps,
    latitudes: new Float64Array(minutes).fill(50),
    longitudes: Float64Array.from({ length: minutes }, (_, i) => i / 1000),
    modes: mode ? Float64Array.from({ length: minutes }, (_, i) => mode(i)) : null,
  };
}
const period = (minutes: number) => ({ from: T0, to: T0 + minutes * MIN });

describe('buildTrack', () => {
  it('keeps every position of a short period, as one segment from the first to the last', () => {
    const track = buildTrack(sailing(60), period(60));
    expect(track.samples).toBe(60);
    expect(track.points).toBe(60);
    expect(track.segments).toHaveLength(1);
    const [segment] = track.segments;
    expect(segment!.mode).toBeNull();
    expect(segment!.from).toBe('2026-03-01T00:00:00.000Z');
    expect(segment!.to).toBe('2026-03-01T00:59:00.000Z');
    expect(segment!.points[0]).toEqual([50, 0]);
    expect(segment!.points.at(-1)).toEqual([50, 0.059]);
  });

  it('thins a month of minutes to about the point budget, first and last position kept', () => {
    const minutes = 31 * 1440;
    const track = buildTrack(sailing(minutes), period(minutes), 500);
    expect(track.samples).toBe(minutes);
    expect(track.points).toBeGreaterThanOrEqual(500);
    expect(track.points).toBeLessThanOrEqual(502);
    expect(track.segments[0]!.points[0]).toEqual([50, 0]);
    expect(track.segments.at(-1)!.points.at(-1)).toEqual([50, (minutes - 1) / 1000]);
  });

  it('does not join positions across a gap longer than the gap limit', () => {
    const columns = sailing(180);
    // Nothing logged from minute 60 to minute 119 (an hour).
    for (let i = 60; i < 120; i++) columns.latitudes[i] = NaN;
    const track = buildTrack(columns, period(180));
    expect(track.samples).toBe(120);
    expect(track.segments).toHaveLength(2);
    expect(track.segments[0]!.to).toBe('2026-03-01T00:59:00.000Z');
    expect(track.segments[1]!.from).toBe('2026-03-01T02:00:00.000Z');
  });

  it('joins positions across a gap within the limit', () => {
    const columns = sailing(120);
    for (let i = 30; i < 50; i++) columns.longitudes[i] = NaN;
    expect(buildTrack(columns, period(120)).segments).toHaveLength(1);
  });

  it('starts a segment where the mode changes, sharing the position so the line goes on', () => {
    const track = buildTrack(
      sailing(90, (i) => (i < 30 || i >= 60 ? 1 : 0)),
      period(90),
    );
    expect(track.segments.map((s) => s.mode)).toEqual(['open', 'closed', 'open']);
    const [open, closed, again] = track.segments;
    expect(open!.points.at(-1)).toEqual(closed!.points[0]);
    expect(closed!.points.at(-1)).toEqual(again!.points[0]);
    expect(closed!.from).toBe('2026-03-01T00:30:00.000Z');
    expect(closed!.to).toBe('2026-03-01T01:00:00.000Z');
  });

  it('counts a thinned stretch with any open-loop position as open loop', () => {
    const minutes = 10 * 1440;
    // Closed loop throughout but for 10 minutes on the fifth day.
    const track = buildTrack(
      sailing(minutes, (i) => (i >= 4 * 1440 && i < 4 * 1440 + 10 ? 1 : 0)),
      period(minutes),
      100,
    );
    expect(track.segments.map((s) => s.mode)).toEqual(['closed', 'open', 'closed']);
  });

  it('gives no mode where none is known, and skips positions out of range', () => {
    const columns = sailing(10, () => NaN);
    columns.latitudes[3] = 95;
    columns.longitudes[4] = -181;
    const track = buildTrack(columns, period(10));
    expect(track.samples).toBe(8);
    expect(track.segments.map((s) => s.mode)).toEqual([null]);
  });

  it('gives no segment without positions', () => {
    const track = buildTrack(
      {
        timestamps: new Float64Array(0),
        latitudes: new Float64Array(0),
        longitudes: new Float64Array(0),
        modes: null,
      },
      period(10),
    );
    expect(track).toEqual({ samples: 0, points: 0, segments: [] });
  });
});

describe('valuesAt', () => {
  it('takes the value at the same timestamp, NaN where the series has none', () => {
    const targets = Float64Array.from([1, 2, 3, 4]);
    const values = valuesAt(targets, {
      timestamps: Float64Array.from([2, 4, 5]),
      values: Float64Array.from([20, 40, 50]),
    });
    expect([...values]).toEqual([NaN, 20, NaN, 40]);
  });
});

describe('lastPosition', () => {
  it('is the last valid position with its mode', () => {
    const columns = sailing(5, (i) => (i < 3 ? 0 : 1));
    columns.latitudes[4] = NaN;
    expect(lastPosition('ship', columns)).toEqual({
      facilityId: 'ship',
      timestamp: '2026-03-01T00:03:00.000Z',
      latitude: 50,
      longitude: 0.003,
      mode: 'open',
    });
  });

  it('is null without one', () => {
    const columns = sailing(2);
    columns.latitudes.fill(NaN);
    expect(lastPosition('ship', columns)).toBeNull();
  });
});
