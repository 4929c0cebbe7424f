import { ECA_ZONES, type LonLat } from '@portal/contracts/eca';
import { EVENT_TYPE_NAMES, type ComplianceEvent } from '@portal/contracts/events';
import {
  SCRUBBER_MODE_NAMES,
  type LatLon,
  type ShipPosition,
  type Track,
  type TrackSegment,
} from '@portal/contracts/map';
import { formatDate, formatDateTime } from '@portal/contracts/rules';

/**
 * Display rules of the map (docs/decisions/0102-map.md): pure functions, unit tested in display.test.ts, used by the
 * map canvas, its legend and the list that says the same in text.
 */

export type ZoneKind = 'eca' | 'ndz';

/** A zone as the map shows it: an ECA or a no-discharge zone, with what it bans, since when and on whose word. */
export interface MapZone {
  id: string;
  kind: ZoneKind;
  name: string;
  /** The State or authority; the ECAs are IMO's. */
  country: string;
  bans: string;
  inForceFrom: string;
  source: string;
  polygons: LonLat[][];
}

export const ZONE_KIND_NAMES: Record<ZoneKind, string> = {
  eca: 'Emission control area (ECA)',
  ndz: 'No-discharge zone (open loop banned)',
};

/** What every ECA bans, and where its limits are set (its coordinates are MARPOL Annex VI Appendix VII's). */
export const ECA_BANS =
  'Fuel above 0.10 % sulfur (m/m), unless a scrubber keeps the SO2/CO2 ratio at or below 4.3';
export const ECA_SOURCE = 'MARPOL Annex VI, regulation 14.4, and its Appendix VII (the areas’ coordinates)';

/** A no-discharge zone as contracts/discharge-zones.ts ships it. */
export type DischargeZoneData = Omit<MapZone, 'id' | 'kind'>;

/** The zones of the map: the ECAs, then the no-discharge zones, each with an id of its own. */
export function mapZones(dischargeZones: readonly DischargeZoneData[]): MapZone[] {
  return [
    ...ECA_ZONES.map((zone, i): MapZone => ({
      id: `eca-${i}`,
      kind: 'eca',
      name: zone.name,
      country: 'IMO (MARPOL Annex VI)',
      bans: ECA_BANS,
      inForceFrom: zone.inForceFrom,
      source: ECA_SOURCE,
      polygons: zone.polygons,
    })),
    ...dischargeZones.map((zone, i): MapZone => ({
      id: `ndz-${i}`,
      kind: 'ndz',
      name: zone.name,
      country: zone.country,
      bans: zone.bans,
      inForceFrom: zone.inForceFrom,
      source: zone.source,
      polygons: zone.polygons,
    })),
  ];
}

/** "In force from 2025.07.01", or "In force from 2025.07.01 (not yet)" when that is after `now`. */
export function inForceText(inForceFrom: string, now: Date): string {
  const from = Date.parse(`${inForceFrom}T00:00:00Z`);
  const date = formatDate(new Date(from));
  return from > now.getTime() ? `In force from ${date} (not yet)` : `In force from ${date}`;
}

/** A source's citation and, when it ends with an address, that address apart (shown as a link). */
export function sourceParts(source: string): { text: string; url: string | null } {
  const match = /^(.*?)[;,]?\s*(https?:\/\/\S+)\s*$/s.exec(source);
  if (!match) return { text: source, url: null };
  return { text: match[1]!.trim(), url: match[2]! };
}

// ---- colours

export const MAP_COLOURS = {
  sea: '#d6e6f2',
  land: '#efece3',
  coast: '#a7a08a',
  eca: '#2e7d32',
  ndz: '#8e24aa',
  open: '#d84315',
  closed: '#1565c0',
  unknown: '#37474f',
  position: '#0b4f8a',
  ahead: '#37474f',
  warning: '#c62828',
} as const;

export type TrackModeKey = 'open' | 'closed' | 'unknown';
export const trackModeKey = (mode: TrackSegment['mode']): TrackModeKey => mode ?? 'unknown';
export const TRACK_MODE_NAMES: Record<TrackModeKey, string> = {
  open: `Track: ${SCRUBBER_MODE_NAMES.open.toLowerCase()}`,
  closed: `Track: ${SCRUBBER_MODE_NAMES.closed.toLowerCase()}`,
  unknown: 'Track',
};

export interface LegendEntry {
  key: string;
  label: string;
  colour: string;
  shape: 'area' | 'line' | 'dot';
}

/** The legend: both zone kinds always; the track's modes that it has; each type of the events shown; positions. */
export function legendEntries(options: {
  track?: Pick<Track, 'segments'> | null;
  positions?: boolean;
  /** The types of the event markers shown. */
  eventTypes?: readonly string[];
  /** The ship's track ahead is drawn (zone warnings, docs/decisions/0123-zone-warnings.md), and its warnings. */
  ahead?: boolean;
  zoneWarnings?: boolean;
}): LegendEntry[] {
  const entries: LegendEntry[] = [
    { key: 'eca', label: ZONE_KIND_NAMES.eca, colour: MAP_COLOURS.eca, shape: 'area' },
    { key: 'ndz', label: ZONE_KIND_NAMES.ndz, colour: MAP_COLOURS.ndz, shape: 'area' },
  ];
  const modes = new Set((options.track?.segments ?? []).map((s) => trackModeKey(s.mode)));
  for (const key of ['open', 'closed', 'unknown'] as const)
    if (modes.has(key))
      entries.push({ key, label: TRACK_MODE_NAMES[key], colour: MAP_COLOURS[key], shape: 'line' });
  // One entry per colour: types that share one are named together.
  const byColour = new Map<string, string[]>();
  for (const type of new Set(options.eventTypes ?? []))
    byColour.set(eventColour(type), [...(byColour.get(eventColour(type)) ?? []), eventTypeName(type)]);
  for (const [colour, names] of byColour)
    entries.push({ key: `event-${colour}`, label: `Event: ${names.join(', ')}`, colour, shape: 'dot' });
  if (options.positions)
    entries.push({ key: 'positions', label: 'Last position', colour: MAP_COLOURS.position, shape: 'dot' });
  if (options.ahead)
    entries.push({ key: 'ahead', label: 'Track ahead (dashed)', colour: MAP_COLOURS.ahead, shape: 'line' });
  if (options.zoneWarnings)
    entries.push({
      key: 'zone-warning',
      label: 'Zone warning: entry',
      colour: MAP_COLOURS.warning,
      shape: 'dot',
    });
  return entries;
}

// ---- the antimeridian

/**
 * The track with each longitude moved by whole turns to within 180° of the one before, across segments, so that a
 * ship crossing the antimeridian draws on (past 180° east) instead of across the whole map.
 */
export function unwrapTrack(segments: readonly TrackSegment[]): {
  segments: TrackSegment[];
  minLon: number;
  maxLon: number;
} {
  let previous: number | null = null;
  let minLon = Infinity;
  let maxLon = -Infinity;
  const out = segments.map((segment) => ({
    ...segment,
    points: segment.points.map(([lat, lon]): LatLon => {
      let next = lon;
      if (previous !== null) {
        while (next - previous > 180) next -= 360;
        while (next - previous < -180) next += 360;
      }
      previous = next;
      minLon = Math.min(minLon, next);
      maxLon = Math.max(maxLon, next);
      return [lat, next];
    }),
  }));
  return { segments: out, minLon, maxLon };
}

/** The copies of the world (longitude offsets) a view of [minLon, maxLon] needs: always 0, and ±360 where reached. */
export function worldOffsets(minLon: number, maxLon: number): number[] {
  const offsets = [0];
  if (Number.isFinite(minLon) && minLon < -180) offsets.unshift(-360);
  if (Number.isFinite(maxLon) && maxLon > 180) offsets.push(360);
  return offsets;
}

/** A ring of [longitude, latitude] as Leaflet's [latitude, longitude], moved by `offset` degrees of longitude. */
export const ringLatLngs = (ring: readonly LonLat[], offset = 0): LatLon[] =>
  ring.map(([lon, lat]) => [lat, lon + offset]);

// ---- the text form

/** "53.9366° N, 9.3385° E". */
export function latLonText(latitude: number, longitude: number): string {
  const lon = ((((longitude + 180) % 360) + 360) % 360) - 180;
  return `${Math.abs(latitude).toFixed(4)}° ${latitude >= 0 ? 'N' : 'S'}, ${Math.abs(lon).toFixed(4)}° ${lon >= 0 ? 'E' : 'W'}`;
}

export interface TrackRow {
  from: string;
  to: string;
  mode: string;
  start: string;
  end: string;
}

/** The track's segments as the rows of its table: times in UTC, the mode, where each starts and ends. */
export function trackRows(track: Pick<Track, 'segments' | 'hasScrubberMode'>): TrackRow[] {
  return track.segments.map((s) => {
    const first = s.points[0];
    const last = s.points.at(-1);
    return {
      from: `${formatDateTime(s.from)} UTC`,
      to: `${formatDateTime(s.to)} UTC`,
      mode: s.mode ? SCRUBBER_MODE_NAMES[s.mode] : track.hasScrubberMode ? 'Not known' : 'Not logged',
      start: first ? latLonText(first[0], first[1]) : '–',
      end: last ? latLonText(last[0], last[1]) : '–',
    };
  });
}

/** What the track is, in a sentence (under the map, and the map's own description). */
export function trackSummary(
  track: Pick<Track, 'segments' | 'samples' | 'points'> | null | undefined,
): string {
  if (!track) return '';
  if (track.samples === 0) return 'No positions in this period';
  const pieces = track.segments.length === 1 ? '1 segment' : `${track.segments.length} segments`;
  const shown =
    track.points < track.samples
      ? `${track.points.toLocaleString('en-US')} of ${track.samples.toLocaleString('en-US')} positions shown`
      : `${track.samples.toLocaleString('en-US')} positions`;
  return `${shown}, in ${pieces}`;
}

// ---- markers

/** A point marker: an event where it started, or a ship's last position. */
export interface MapMarker {
  id: string;
  kind: 'event' | 'position';
  latitude: number;
  longitude: number;
  colour: string;
  /** The popup's title (also the marker's tooltip), then its lines; a link (to the event or the ship) last. */
  title: string;
  lines: string[];
  link?: { href: string; text: string };
}

/** Event dots: non-compliance in the alarm colours, the informational ones calm. */
const EVENT_COLOURS: Record<string, string> = {
  'emission-exceedance': '#b25000',
  'scrubber-off': '#c62828',
  'data-gap': '#616161',
  'sensor-fault': '#616161',
  'eca-entry': MAP_COLOURS.eca,
  'eca-exit': MAP_COLOURS.eca,
};
export const eventColour = (type: string) => EVENT_COLOURS[type] ?? MAP_COLOURS.ndz;
export const eventTypeName = (type: string) => (EVENT_TYPE_NAMES as Record<string, string>)[type] ?? type;

/** The events that have a position, as dots where they started. */
export function eventMarkers(
  events: readonly Pick<ComplianceEvent, 'id' | 'type' | 'start' | 'startPosition'>[],
): MapMarker[] {
  return events.flatMap((e) =>
    e.startPosition
      ? [
          {
            id: e.id,
            kind: 'event' as const,
            latitude: e.startPosition.latitude,
            longitude: e.startPosition.longitude,
            colour: eventColour(e.type),
            title: eventTypeName(e.type),
            lines: [
              `${formatDateTime(e.start)} UTC`,
              latLonText(e.startPosition.latitude, e.startPosition.longitude),
            ],
            link: { href: `/events/${e.id}`, text: 'Open the event' },
          },
        ]
      : [],
  );
}

/** The ships' last positions, named, each linking to its ship's map. */
export function positionMarkers(
  positions: readonly ShipPosition[],
  names: ReadonlyMap<string, string>,
): MapMarker[] {
  return positions.map((p) => ({
    id: p.facilityId,
    kind: 'position',
    latitude: p.latitude,
    longitude: p.longitude,
    colour: MAP_COLOURS.position,
    title: names.get(p.facilityId) ?? 'Ship',
    lines: [
      `${formatDateTime(p.timestamp)} UTC`,
      latLonText(p.latitude, p.longitude),
      ...(p.mode ? [`Scrubber: ${SCRUBBER_MODE_NAMES[p.mode].toLowerCase()}`] : []),
    ],
    link: { href: `/ship/${p.facilityId}/map`, text: 'Track of the period' },
  }));
}

// ---- the basemap's land across the antimeridian

type Ring = number[][];

/**
 * Natural Earth's land rings that cross the antimeridian (Chukotka, Fiji) jump from 180° to -180° and back, which a
 * flat map draws as a line around the world. Each such ring is unwrapped (every longitude within 180° of the one
 * before) and, when it then reaches past ±180°, also drawn shifted by a whole turn, so both sides show. A ring that
 * goes round the world (Antarctica: its unwrapped ends do not meet) is kept as it is.
 */
export function mendAntimeridian(polygons: readonly Ring[][]): Ring[][] {
  const out: Ring[][] = [];
  for (const polygon of polygons) {
    const rings = polygon.map((ring) => {
      let previous: number | null = null;
      const unwrapped = ring.map(([lon, lat, ...rest]) => {
        let next = lon!;
        if (previous !== null) {
          while (next - previous > 180) next -= 360;
          while (next - previous < -180) next += 360;
        }
        previous = next;
        return [next, lat!, ...rest];
      });
      const first = unwrapped[0]?.[0] ?? 0;
      const last = unwrapped.at(-1)?.[0] ?? 0;
      return Math.abs(last - first) > 180 ? ring.map((p) => [...p]) : unwrapped;
    });
    out.push(rings);
    const lons = rings.flatMap((ring) => ring.map((p) => p[0]!));
    const shift = (by: number) => rings.map((ring) => ring.map(([lon, ...rest]) => [lon! + by, ...rest]));
    if (Math.max(...lons) > 180) out.push(shift(-360));
    if (Math.min(...lons) < -180) out.push(shift(360));
  }
  return out;
}

// ---- zone warnings (docs/decisions/0123-zone-warnings.md)

/** A warning as the page says it: its text as a sentence, and when the ship enters (UTC). */
export function zoneWarningSentence(
  w: { text: string; entryAt: string },
  format: (iso: string) => string,
): string {
  return `${w.text.charAt(0).toUpperCase()}${w.text.slice(1)} (entry about ${format(w.entryAt)} UTC).`;
}
