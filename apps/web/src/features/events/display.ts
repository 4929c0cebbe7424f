import {
  EVENT_CLASSIFICATIONS,
  EVENT_CLASSIFICATION_NAMES,
  EVENT_STATES,
  EVENT_STATE_NAMES,
  EVENT_TYPES,
  EVENT_TYPE_NAMES,
  needsAttention,
  type ComplianceEvent,
  type EventClassification,
  type EventList,
  type EventListQuery,
  type EventPosition,
  type EventState,
  type EventType,
  type RecordBookEntryView,
} from '@portal/contracts/events';
import { eventValueText, formatDateTime, isAdmin, type Role } from '@portal/contracts/rules';

/**
 * Display rules of the compliance event screens (docs/decisions/0080-compliance-events.md): pure functions, unit
 * tested in display.test.ts, used by the pages and the cards.
 */

export type ChipColour = 'default' | 'error' | 'warning' | 'info' | 'success';
export interface ChipModel {
  label: string;
  colour: ChipColour;
  variant: 'filled' | 'outlined';
}

/** Events that are an instant, not a span: they have no duration. */
const INSTANTS: readonly EventType[] = ['eca-entry', 'eca-exit'];
/** Informational events (Circ.883: recorded, not a malfunction by themselves): no alarm colours. */
export const isInformational = (type: EventType) =>
  type === 'data-gap' || type === 'eca-entry' || type === 'eca-exit';

/** "45 min", "2 h 5 min", "3 d 4 h" (a span of days needs no minutes). */
export function durationText(minutes: number): string {
  const m = Math.max(0, Math.round(minutes));
  if (m < 60) return `${m} min`;
  const days = Math.floor(m / 1440);
  const hours = Math.floor((m % 1440) / 60);
  if (days > 0) return hours ? `${days} d ${hours} h` : `${days} d`;
  const rest = m % 60;
  return rest ? `${hours} h ${rest} min` : `${hours} h`;
}

/** An event's duration as listed: none for an instant, "so far" while it lasts. */
export function eventDurationText(
  event: Pick<ComplianceEvent, 'type' | 'ongoing' | 'durationMinutes'>,
): string {
  if (INSTANTS.includes(event.type)) return '–';
  const text = durationText(event.durationMinutes);
  return event.ongoing ? `${text} so far` : text;
}

export const STILL_GOING_ON = 'Still going on';

/** The end as shown: the spec's date format, or that it still lasts. */
export const eventEndText = (event: Pick<ComplianceEvent, 'end' | 'ongoing'>) =>
  event.ongoing || !event.end ? STILL_GOING_ON : formatDateTime(event.end);

/**
 * The state chip: open in an alarm colour when the event needs attention; an event nobody has to act on (a
 * transient, an ECA entry or exit) is "Recorded", not "Open"; acknowledged and closed calmer.
 */
export function stateChip(event: Pick<ComplianceEvent, 'state' | 'type' | 'classification'>): ChipModel {
  const label = EVENT_STATE_NAMES[event.state];
  if (event.state === 'closed') return { label, colour: 'success', variant: 'outlined' };
  if (event.state === 'acknowledged') return { label, colour: 'info', variant: 'outlined' };
  if (!needsAttention(event)) return { label: 'Recorded', colour: 'default', variant: 'outlined' };
  return { label, colour: 'warning', variant: 'filled' };
}

/** The classification chip; none for informational events. A transient is the scrubber's dynamic response. */
export function classificationChip(classification: EventClassification | null): ChipModel | null {
  if (!classification) return null;
  const label = EVENT_CLASSIFICATION_NAMES[classification];
  return classification === 'transient'
    ? { label, colour: 'default', variant: 'outlined' }
    : { label, colour: 'error', variant: 'filled' };
}

/** The report chip: required and not yet sent in red, sent in green; none when no report is required. */
export function reportChip(
  event: Pick<ComplianceEvent, 'reportRequired' | 'reportSentOn'>,
): ChipModel | null {
  if (!event.reportRequired) return null;
  return event.reportSentOn
    ? { label: 'Report sent', colour: 'success', variant: 'outlined' }
    : { label: 'Report required', colour: 'error', variant: 'filled' };
}

/** "53.9366° N, 9.3385° E"; 'Not known' without a position. */
export function positionText(position: EventPosition | null | undefined): string {
  if (!position) return 'Not known';
  const { latitude, longitude } = position;
  return `${Math.abs(latitude).toFixed(4)}° ${latitude >= 0 ? 'N' : 'S'}, ${Math.abs(longitude).toFixed(4)}° ${longitude >= 0 ? 'E' : 'W'}`;
}

/**
 * The worst value against the limit in force, with what it measures and its unit, as every text describing the
 * event says it (the event description, rules/event-description.ts): "pH 6.00 (minimum 6.50)", "SO2/CO2 ratio 5.51
 * (limit 4.30)"; '–' for events without one.
 */
export const worstValueText = (
  event: Pick<ComplianceEvent, 'type' | 'channel' | 'fault' | 'worstValue' | 'limit'>,
): string => eventValueText(event);

/** 1st, 2nd, 3rd, 4th, 11th, 21st. */
export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/** A record book hash, shortened for the table (the export carries it whole). */
export const shortHash = (hash: string) => hash.slice(0, 10);

/** A closing administrator: UserAdmin or SystemAdmin (the API refuses a User). */
export const mayCloseEvents = (roles: readonly Role[]) => isAdmin(roles);

/** Why Close is not offered on an event, or null when it may be closed. */
export function closeBlockedReason(event: Pick<ComplianceEvent, 'state' | 'ongoing'>): string | null {
  if (event.state === 'closed') return 'The event is closed';
  if (event.ongoing) return 'The event is still going on: it can be closed once it has ended';
  return null;
}

// ---- the list's filters (kept in the address, so a filtered list can be linked to)

/** All time (the default: an open event stays to be dealt with, however old), or the drawer's period. */
export type EventPeriodChoice = 'all' | 'period';
export interface EventFilter {
  types: EventType[];
  classifications: EventClassification[];
  states: EventState[];
  /** One ship, or every ship the user sees. */
  facilityId: string | null;
  /** All time, or the app's period (the drawer's). */
  period: EventPeriodChoice;
  /** Only the events that need a report to the flag State and the port State. */
  reportRequired: boolean;
}

export const NO_EVENT_FILTER: EventFilter = {
  types: [],
  classifications: [],
  states: [],
  facilityId: null,
  period: 'all',
  reportRequired: false,
};

const pick = <T extends string>(allowed: readonly T[], values: string[]): T[] =>
  allowed.filter((v) => values.includes(v));

/** The filter of an address's search parameters; unknown values are dropped. */
export function parseEventFilter(search: URLSearchParams, fixedFacilityId?: string): EventFilter {
  return {
    types: pick(EVENT_TYPES, search.getAll('type')),
    classifications: pick(EVENT_CLASSIFICATIONS, search.getAll('classification')),
    states: pick(EVENT_STATES, search.getAll('state')),
    facilityId: fixedFacilityId ?? search.get('ship') ?? null,
    period: search.get('period') === 'app' ? 'period' : 'all',
    reportRequired: search.get('report') === 'required',
  };
}

/** The search parameters of a filter (a ship fixed by the page is not repeated in its address). */
export function eventFilterSearch(filter: EventFilter, fixedFacilityId?: string): URLSearchParams {
  const search = new URLSearchParams();
  filter.types.forEach((t) => search.append('type', t));
  filter.classifications.forEach((c) => search.append('classification', c));
  filter.states.forEach((s) => search.append('state', s));
  if (filter.facilityId && filter.facilityId !== fixedFacilityId) search.set('ship', filter.facilityId);
  if (filter.period === 'period') search.set('period', 'app');
  if (filter.reportRequired) search.set('report', 'required');
  return search;
}

/** The request of GET events for a filter, the app's period and a page of the table. */
export function eventListRequest(
  filter: EventFilter,
  period: { from: Date; to: Date },
  page: number,
  pageSize: number,
): EventListQuery {
  return {
    ...(filter.period === 'period' ? { from: period.from.toISOString(), to: period.to.toISOString() } : {}),
    ...(filter.facilityId ? { facilityId: filter.facilityId } : {}),
    ...(filter.types.length ? { type: filter.types } : {}),
    ...(filter.classifications.length ? { classification: filter.classifications } : {}),
    ...(filter.states.length ? { state: filter.states } : {}),
    ...(filter.reportRequired ? { reportRequired: 'true' as const } : {}),
    limit: pageSize,
    offset: page * pageSize,
  };
}

// ---- the fleet card and the ship badges

export interface OpenEventsSummary {
  total: number;
  reportsDue: number;
  /** Per type with events not closed, in the order of EVENT_TYPES (non-compliance first). */
  byType: { type: EventType; name: string; count: number }[];
}

/** The "Open events" card: reports due first, then the counts by type. */
export function openEventsSummary(list: Pick<EventList, 'openByType' | 'reportsDue'>): OpenEventsSummary {
  const byType = EVENT_TYPES.map((type) => ({
    type,
    name: EVENT_TYPE_NAMES[type],
    count: list.openByType[type] ?? 0,
  })).filter((t) => t.count > 0);
  return { total: byType.reduce((s, t) => s + t.count, 0), reportsDue: list.reportsDue, byType };
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * A ship's badge: the reports due (red) if any, else the malfunctions not closed (orange), else its other events
 * not closed (grey); none when nothing is open.
 */
export function shipEventBadge(
  counts: { open: number; malfunctions: number; reportsDue: number } | undefined,
): ChipModel | null {
  if (!counts || counts.open === 0) return null;
  if (counts.reportsDue > 0)
    return {
      label: plural(counts.reportsDue, 'report due', 'reports due'),
      colour: 'error',
      variant: 'filled',
    };
  if (counts.malfunctions > 0)
    return {
      label: plural(counts.malfunctions, 'open malfunction', 'open malfunctions'),
      colour: 'warning',
      variant: 'filled',
    };
  return { label: plural(counts.open, 'open event', 'open events'), colour: 'default', variant: 'outlined' };
}

// ---- the chart bands

export type BandKind = 'exceedance' | 'off' | 'gap';
/** A span of an event on a time chart. */
export interface EventBand {
  from: string;
  to: string;
  kind: BandKind;
  label: string;
}
const BAND_KIND: Partial<Record<EventType, BandKind>> = {
  'emission-exceedance': 'exceedance',
  'scrubber-off': 'off',
  'data-gap': 'gap',
  'sensor-fault': 'gap',
};
/** The colours of the bands: warning and error as the theme's, grey for missing data; see-through over the lines. */
export const BAND_COLOURS: Record<BandKind, string> = {
  exceedance: 'rgba(178, 80, 0, 0.22)',
  off: 'rgba(211, 47, 47, 0.22)',
  gap: 'rgba(117, 117, 117, 0.25)',
};
export const BAND_NAMES: Record<BandKind, string> = {
  exceedance: 'Emission exceedance',
  off: 'Scrubber off while required',
  gap: 'Data gap or sensor fault',
};

/** The events drawn as bands on the ratio chart (exceedances, scrubber stops, data gaps and sensor faults). */
export function eventBands(
  events: readonly Pick<ComplianceEvent, 'type' | 'start' | 'end' | 'durationMinutes'>[],
): EventBand[] {
  return events.flatMap((e) => {
    const kind = BAND_KIND[e.type];
    if (!kind) return [];
    const to = e.end ?? new Date(Date.parse(e.start) + e.durationMinutes * 60_000).toISOString();
    return [{ from: e.start, to, kind, label: EVENT_TYPE_NAMES[e.type] }];
  });
}

// ---- the washwater chart's bands

/** The washwater chart's panels: pH, PAH above inlet and turbidity above inlet. */
export type WashwaterPanel = 'ph' | 'pah' | 'turbidity';
export const WASHWATER_PANELS: readonly WashwaterPanel[] = ['ph', 'pah', 'turbidity'];
const PANEL_OF_CHANNEL: Record<string, WashwaterPanel> = {
  WASHWATER_PH: 'ph',
  WASHWATER_PAH: 'pah',
  WASHWATER_TURBIDITY: 'turbidity',
};
export type WashwaterBandKind = 'exceedance' | 'no-discharge-zone';
/** A span of a washwater event on the panels it concerns. */
export interface WashwaterBand extends Omit<EventBand, 'kind'> {
  kind: WashwaterBandKind;
  panels: readonly WashwaterPanel[];
}
export const WASHWATER_BAND_COLOURS: Record<WashwaterBandKind, string> = {
  exceedance: BAND_COLOURS.exceedance,
  'no-discharge-zone': 'rgba(142, 36, 170, 0.22)',
};
export const WASHWATER_BAND_NAMES: Record<WashwaterBandKind, string> = {
  exceedance: 'Washwater exceedance',
  'no-discharge-zone': 'Open loop in a no-discharge zone',
};

/**
 * The washwater events as bands: an exceedance on its criterion's panel (the event's channel), open loop in a
 * no-discharge zone on all three (nothing may go overboard there). Other events are not drawn here.
 */
export function washwaterBands(
  events: readonly Pick<ComplianceEvent, 'type' | 'start' | 'end' | 'durationMinutes' | 'channel'>[],
): WashwaterBand[] {
  return events.flatMap((e): WashwaterBand[] => {
    const to = e.end ?? new Date(Date.parse(e.start) + e.durationMinutes * 60_000).toISOString();
    if (e.type === 'open-loop-in-no-discharge-zone')
      return [
        {
          from: e.start,
          to,
          kind: 'no-discharge-zone',
          label: EVENT_TYPE_NAMES[e.type],
          panels: WASHWATER_PANELS,
        },
      ];
    const panel = e.type === 'washwater-exceedance' && e.channel ? PANEL_OF_CHANNEL[e.channel] : undefined;
    return panel
      ? [{ from: e.start, to, kind: 'exceedance', label: EVENT_TYPE_NAMES[e.type], panels: [panel] }]
      : [];
  });
}

// ---- the event's timeline

/**
 * The record book entries of one event, in the book's order: its own, and for a scrubber stop the fuel change-overs
 * recorded while it lasted (one ends it where the fuel is within the area's limit: the engine stops counting there),
 * unless a later entry corrects them.
 */
export function eventTimeline(
  entries: readonly RecordBookEntryView[],
  event: Pick<ComplianceEvent, 'id' | 'type' | 'start' | 'end'>,
): RecordBookEntryView[] {
  const corrected = new Set(entries.map((e) => e.correctsId));
  const start = Date.parse(event.start);
  // The engine ends an episode one target step (a minute) after its last counting sample.
  const end = event.end === null ? Infinity : Date.parse(event.end) + 60_000;
  const changeOverDuring = (e: RecordBookEntryView) => {
    const at = Date.parse(e.occurredOn);
    return e.fuelSulfurPct != null && !corrected.has(e.id) && at >= start && at <= end;
  };
  return entries
    .filter((e) => e.eventId === event.id || (event.type === 'scrubber-off' && changeOverDuring(e)))
    .sort((a, b) => a.sequence - b.sequence);
}

/** For each corrected entry, the sequence numbers of the entries correcting it. */
export function correctionsOf(entries: readonly RecordBookEntryView[]): Map<string, number[]> {
  const corrections = new Map<string, number[]>();
  for (const e of entries)
    if (e.correctsId) corrections.set(e.correctsId, [...(corrections.get(e.correctsId) ?? []), e.sequence]);
  return corrections;
}

// ---- the report draft

const sameTexts = (a: Record<string, string>, b: Record<string, string>) =>
  Object.keys(b).every((k) => a[k] === b[k]);

/**
 * The report form when a new saved draft arrives (an acknowledgement fills its cause and actions): the new one,
 * unless the user has edited the form since the draft before it, whose edits stay.
 */
export function draftAfterAnswer<T extends Record<string, string>>(
  current: T | null,
  before: T | null,
  saved: T,
): T {
  if (current === null || before === null || sameTexts(current, before)) return saved;
  return current;
}
