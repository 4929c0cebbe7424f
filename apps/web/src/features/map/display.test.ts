import { describe, expect, it } from 'vitest';
import { ECA_ZONES } from '@portal/contracts/eca';
import type { TrackSegment } from '@portal/contracts/map';
import {
  ECA_BANS,
  eventMarkers,
  inForceText,
  latLonText,
  mendAntimeridian,
  legendEntries,
  mapZones,
  positionMarkers,
  ringLatLngs,
  sourceParts,
  trackRows,
  trackSummary,
  unwrapTrack,
  worldOffsets,
} from './display';

const segment = (points: [number, number][], mode: TrackSegment['mode'] = null): TrackSegment => ({
  from: '2026-03-01T00:00:00.000Z',
  to: '2026-03-01T06:00:00.000Z',
  mode,
  points,
});

describe('mapZones', () => {
  it('gives every ECA with what it bans, then the no-discharge zones as shipped', () => {
    const zones = mapZones([
      {
        name: 'Singapore port waters',
        country: 'Singapore',
        bans: 'Open-loop scrubber discharge',
        inForceFrom: '2020-01-01',
        source: 'MPA Port Marine Circular No. 20 of 2018',
        polygons: [
          [
            [103.6, 1.16],
            [103.6, 1.3],
            [104.1, 1.26],
          ],
        ],
      },
    ]);
    expect(zones.filter((z) => z.kind === 'eca')).toHaveLength(ECA_ZONES.length);
    expect(zones[0]).toMatchObject({ id: 'eca-0', name: ECA_ZONES[0]!.name, bans: ECA_BANS });
    expect(zones.at(-1)).toMatchObject({ id: 'ndz-0', kind: 'ndz', country: 'Singapore' });
    expect(new Set(zones.map((z) => z.id)).size).toBe(zones.length);
  });
});

describe('inForceText', () => {
  it('says from when, and "not yet" for a date to come', () => {
    const now = new Date('2025-06-01T00:00:00Z');
    expect(inForceText('2020-01-01', now)).toBe('In force from 2020.01.01');
    expect(inForceText('2025-07-01', now)).toBe('In force from 2025.07.01 (not yet)');
  });
});

describe('sourceParts', () => {
  it('takes a trailing address apart from the citation', () => {
    expect(sourceParts('MPA Port Marine Circular No. 20 of 2018; https://example.org/a%20b')).toEqual({
      text: 'MPA Port Marine Circular No. 20 of 2018',
      url: 'https://example.org/a%20b',
    });
    expect(sourceParts('MARPOL Annex VI')).toEqual({ text: 'MARPOL Annex VI', url: null });
  });
});

describe('legendEntries', () => {
  it('always names both zone kinds, and only the modes the track has', () => {
    const keys = (e: ReturnType<typeof legendEntries>) => e.map((x) => x.key);
    expect(keys(legendEntries({}))).toEqual(['eca', 'ndz']);
    expect(
      keys(
        legendEntries({
          track: { segments: [segment([[1, 1]], 'closed'), segment([[1, 2]], 'open')] },
        }),
      ),
    ).toEqual(['eca', 'ndz', 'open', 'closed']);
    expect(keys(legendEntries({ track: { segments: [segment([[1, 1]])] }, positions: true }))).toEqual([
      'eca',
      'ndz',
      'unknown',
      'positions',
    ]);
  });

  it('names the event types shown, those of one colour together', () => {
    const events = legendEntries({
      eventTypes: ['scrubber-off', 'data-gap', 'sensor-fault', 'data-gap'],
    }).slice(2);
    expect(events.map((e) => [e.label, e.colour])).toEqual([
      ['Event: Scrubber off while required', '#c62828'],
      ['Event: Data gap, Sensor fault', '#616161'],
    ]);
  });
});

describe('unwrapTrack', () => {
  it('draws a crossing of the antimeridian on past 180° east, across segments', () => {
    const { segments, minLon, maxLon } = unwrapTrack([
      segment([
        [30, 170],
        [31, 179],
        [32, -179],
      ]),
      segment([
        [33, -170],
        [34, -118],
      ]),
    ]);
    expect(segments[0]!.points).toEqual([
      [30, 170],
      [31, 179],
      [32, 181],
    ]);
    expect(segments[1]!.points).toEqual([
      [33, 190],
      [34, 242],
    ]);
    expect([minLon, maxLon]).toEqual([170, 242]);
    expect(worldOffsets(minLon, maxLon)).toEqual([0, 360]);
  });

  it('leaves a track within one world as it is', () => {
    const { segments, minLon, maxLon } = unwrapTrack([
      segment([
        [51.9, 4.05],
        [53.5, 9.97],
      ]),
    ]);
    expect(segments[0]!.points).toEqual([
      [51.9, 4.05],
      [53.5, 9.97],
    ]);
    expect(worldOffsets(minLon, maxLon)).toEqual([0]);
    expect(worldOffsets(Infinity, -Infinity)).toEqual([0]);
    expect(worldOffsets(-200, 10)).toEqual([-360, 0]);
  });
});

describe('ringLatLngs', () => {
  it('turns [longitude, latitude] into [latitude, longitude], moved by the offset', () => {
    expect(ringLatLngs([[-118.3, 33.7]], 360)).toEqual([[33.7, 241.7]]);
  });
});

describe('the text form', () => {
  it('writes positions with hemispheres, an unwrapped longitude as the real one', () => {
    expect(latLonText(53.93661, 9.33849)).toBe('53.9366° N, 9.3385° E');
    expect(latLonText(-23.98, -46.3)).toBe('23.9800° S, 46.3000° W');
    expect(latLonText(34, 242)).toBe('34.0000° N, 118.0000° W');
  });

  it('lists each segment with its times, mode and ends', () => {
    const rows = trackRows({
      hasScrubberMode: true,
      segments: [
        segment(
          [
            [51.95, 4.05],
            [53.54, 9.97],
          ],
          'open',
        ),
        segment([[53.54, 9.97]], null),
      ],
    });
    expect(rows[0]).toEqual({
      from: '2026.03.01 00:00 UTC',
      to: '2026.03.01 06:00 UTC',
      mode: 'Open loop',
      start: '51.9500° N, 4.0500° E',
      end: '53.5400° N, 9.9700° E',
    });
    expect(rows[1]!.mode).toBe('Not known');
    expect(trackRows({ hasScrubberMode: false, segments: [segment([[1, 1]])] })[0]!.mode).toBe('Not logged');
  });

  it('sums the track up, and says when there is none', () => {
    expect(trackSummary({ samples: 0, points: 0, segments: [] })).toBe('No positions in this period');
    expect(trackSummary({ samples: 64_800, points: 2_003, segments: [segment([]), segment([])] })).toBe(
      '2,003 of 64,800 positions shown, in 2 segments',
    );
    expect(trackSummary({ samples: 60, points: 60, segments: [segment([])] })).toBe(
      '60 positions, in 1 segment',
    );
  });
});

describe('markers', () => {
  it('puts events with a position where they started, linked; none without one', () => {
    const markers = eventMarkers([
      {
        id: 'e1',
        type: 'scrubber-off',
        start: '2026-03-01T04:05:00.000Z',
        startPosition: { latitude: 54.1, longitude: 7.2 },
      },
      { id: 'e2', type: 'data-gap', start: '2026-03-01T05:00:00.000Z', startPosition: null },
    ]);
    expect(markers).toEqual([
      {
        id: 'e1',
        kind: 'event',
        latitude: 54.1,
        longitude: 7.2,
        colour: '#c62828',
        title: 'Scrubber off while required',
        lines: ['2026.03.01 04:05 UTC', '54.1000° N, 7.2000° E'],
        link: { href: '/events/e1', text: 'Open the event' },
      },
    ]);
  });

  it('names each ship at its last position, with its mode when logged', () => {
    const [marker] = positionMarkers(
      [
        {
          facilityId: 's1',
          timestamp: '2026-03-01T23:59:00.000Z',
          latitude: 1.26,
          longitude: 103.83,
          mode: 'closed',
        },
      ],
      new Map([['s1', 'Straits Pioneer']]),
    );
    expect(marker).toMatchObject({
      title: 'Straits Pioneer',
      lines: ['2026.03.01 23:59 UTC', '1.2600° N, 103.8300° E', 'Scrubber: closed loop'],
      link: { href: '/ship/s1/map', text: 'Track of the period' },
    });
  });
});

describe('mendAntimeridian', () => {
  it('unwraps a ring that jumps across the antimeridian and draws it on both sides', () => {
    const fiji = [
      [
        [179, -16],
        [-179.5, -16.5],
        [-179.8, -17],
        [179.2, -17],
        [179, -16],
      ],
    ];
    const [east, west] = mendAntimeridian([fiji]);
    expect(east![0]!.map((p) => p[0])).toEqual([179, 180.5, 180.2, 179.2, 179]);
    expect(west![0]!.map((p) => p[0])).toEqual([-181, -179.5, -179.8, -180.8, -181]);
  });

  it('keeps a ring within one world, and one that goes round the world, as they are', () => {
    const island = [
      [
        [4, 52],
        [5, 53],
        [4, 52],
      ],
    ];
    expect(mendAntimeridian([island])).toEqual([island]);
    const antarctica = [
      [
        [-180, -70],
        [0, -68],
        [179.9, -70],
        [180, -90],
        [-180, -90],
        [-180, -70],
      ],
    ];
    expect(mendAntimeridian([antarctica])).toEqual([antarctica]);
  });
});
