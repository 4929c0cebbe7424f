import type { AlertDeliveryFailure, AlertSettings, AlertSnapshot, QuietHours } from '../alerts';
import { EVENT_CLASSIFICATION_NAMES, type EventClassification } from '../events';
import { formatDateTime } from './dates';
import { eventTitle, eventValueText } from './event-description';

/**
 * The rules of alerts (docs/decisions/0091-alerts.md) as pure functions: an event's alert level, whether a
 * subscription wants an event, and what an alert says.
 */

/**
 * How serious a classified event is: 1 transient, 2 malfunction or repeated, 3 report required; 0 for the types
 * without a classification (data gap, sensor fault, ECA entry and exit). An event "classified up" rose a level.
 */
export function alertLevel(event: { classification: string | null; reportRequired: boolean }): number {
  if (!event.classification) return 0;
  if (event.reportRequired) return 3;
  return event.classification === 'transient' ? 1 : 2;
}

/**
 * Does a subscription want alerts of this event? Its type must be chosen; a classified event must also have a
 * chosen classification, or require a report when "report required" is chosen.
 */
export function subscriptionWants(
  settings: Pick<AlertSettings, 'eventTypes' | 'classifications'>,
  event: { type: string; classification: string | null; reportRequired: boolean },
): boolean {
  if (!(settings.eventTypes as readonly string[]).includes(event.type)) return false;
  if (!event.classification) return true;
  if ((settings.classifications as readonly string[]).includes(event.classification)) return true;
  return event.reportRequired && settings.classifications.includes('report-required');
}

/**
 * Does a subscription's choice of ships take this ship? `organizationIds`: the ship's owner and the organizations
 * it is shared with. Whether the user may see the ship at all is the access policy's, decided before.
 */
export function subscriptionTakesShip(
  settings: Pick<AlertSettings, 'ships'>,
  ship: { facilityId: string; organizationIds: readonly string[] },
): boolean {
  const { ships } = settings;
  if (ships.mode === 'all') return true;
  if (ships.mode === 'selected') return ships.facilityIds.includes(ship.facilityId);
  return ships.organizationIds.some((id) => ship.organizationIds.includes(id));
}

/** "45 min", "2 h 5 min", "3 d 4 h". */
export function alertDurationText(minutes: number): string {
  const m = Math.max(0, Math.round(minutes));
  if (m < 60) return `${m} min`;
  const days = Math.floor(m / 1440);
  const hours = Math.floor((m % 1440) / 60);
  if (days > 0) return hours ? `${days} d ${hours} h` : `${days} d`;
  const rest = m % 60;
  return rest ? `${hours} h ${rest} min` : `${hours} h`;
}

const INSTANT_TYPES = ['eca-entry', 'eca-exit'];

/** "Malfunction, report required" / "Transient" / null for the types without a classification. */
export function alertClassificationText(snapshot: Pick<AlertSnapshot, 'classification' | 'reportRequired'>) {
  if (!snapshot.classification) return null;
  const name = EVENT_CLASSIFICATION_NAMES[snapshot.classification as EventClassification];
  return snapshot.reportRequired ? `${name}, report required` : name;
}

/** The alert's subject line: what happened, to which ship. */
export function alertSubject(kind: string, s: AlertSnapshot): string {
  const what = s.typeName + (s.classification ? ` (${alertClassificationText(s)!.toLowerCase()})` : '');
  switch (kind) {
    case 'classified-up':
      return `${s.facilityName}: ${s.typeName} is now ${alertClassificationText(s)!.toLowerCase()}`;
    case 'reminder':
      return `Reminder: ${s.facilityName}: ${what} is not acknowledged`;
    case 'resolved':
      return `${s.facilityName}: ${s.typeName} ended`;
    default:
      return `${s.facilityName}: ${what}`;
  }
}

/**
 * The facts every alert names: ship, event (its title by criterion or channel), start, duration, and the worst
 * value against its limit with its unit, as the event page shows them (rules/event-description.ts).
 */
export function alertFacts(s: AlertSnapshot): [string, string][] {
  const facts: [string, string][] = [
    ['Ship', s.facilityName],
    ['Event', eventTitle(s)],
  ];
  const classification = alertClassificationText(s);
  if (classification) facts.push(['Classification', classification]);
  facts.push(['Start', `${formatDateTime(s.start)} UTC`]);
  if (!INSTANT_TYPES.includes(s.type)) {
    facts.push([
      'Duration',
      s.end ? alertDurationText(s.durationMinutes) : `${alertDurationText(s.durationMinutes)} so far`,
    ]);
    facts.push(['End', s.end ? `${formatDateTime(s.end)} UTC` : 'Still going on']);
  }
  facts.push(['Value', eventValueText(s)]);
  return facts;
}

/** The first line of an alert's text: what happened. */
export function alertHeadline(kind: string, s: AlertSnapshot): string {
  switch (kind) {
    case 'classified-up':
      return `The event is now classified ${alertClassificationText(s)!.toLowerCase()}.`;
    case 'reminder':
      return `This event requires a report and has not been acknowledged for ${s.waitedHours ?? 0} h.`;
    case 'resolved':
      return 'The event has ended.';
    default:
      return s.end || INSTANT_TYPES.includes(s.type)
        ? 'A new event was recorded.'
        : 'A new event is going on.';
  }
}

/** The alert as plain text: headline, the facts one per line, and the link to the event. */
export function alertText(kind: string, s: AlertSnapshot, link: string): string {
  return [
    alertHeadline(kind, s),
    '',
    ...alertFacts(s).map(([k, v]) => `${k}: ${v}`),
    '',
    `Open the event: ${link}`,
  ].join('\n');
}

/**
 * An alert in the bell (a personal message), made for the bell rather than an e-mail: a short title (the event's
 * title and what happened to it; the ship is the text's first line).
 */
export function alertBellTitle(kind: string, s: AlertSnapshot): string {
  const title = eventTitle(s);
  switch (kind) {
    case 'classified-up':
      return `${title}: now ${alertClassificationText(s)!.toLowerCase()}`;
    case 'reminder':
      return `Reminder: ${title} is not acknowledged`;
    case 'resolved':
      return `${title} ended`;
    default:
      return title;
  }
}

/**
 * The bell's text of an alert, one fact a line: the ship; the worst value with its unit (none for the events
 * without one); classification and duration; the link to the event, alone on its line (the bell shows it as
 * "Open the event", {@link messageTextParts}).
 */
export function alertBellText(kind: string, s: AlertSnapshot, link: string): string {
  const value = eventValueText(s);
  const duration = INSTANT_TYPES.includes(s.type)
    ? null
    : `${alertDurationText(s.durationMinutes)}${s.end ? '' : ' so far'}`;
  const status = [
    alertClassificationText(s),
    duration,
    kind === 'reminder' ? `not acknowledged for ${s.waitedHours ?? 0} h` : null,
  ]
    .filter(Boolean)
    .join(' · ');
  return [s.facilityName, ...(value === '–' ? [] : [value]), ...(status ? [status] : []), link].join('\n');
}

/** The event's address in the portal (a deep link: sign-in first when needed, then the event). */
export const eventLink = (baseUrl: string, eventId: string) =>
  `${baseUrl.replace(/\/$/, '')}/events/${encodeURIComponent(eventId)}`;

/** The profile's notice of an e-mail that was refused or could not be sent. */
export const deliveryFailureText = (failure: Pick<AlertDeliveryFailure, 'address' | 'error'>) =>
  `Alerts to ${failure.address} could not be delivered: ${failure.error}`;

/** What a portal link alone on its line opens, as the bell names it; null to show the address. */
function linkLabel(path: string): string | null {
  if (/^\/events\/[^/]+$/.test(path)) return 'Open the event';
  return /^\/ship\/[^/]+\/map$/.test(path) ? 'Open the map' : null;
}

/**
 * The parts of a message text, portal links apart: links to this portal (`origin`) become links in the bell, any
 * other text stays text (a message never links elsewhere). A link to an event alone on its line (an alert's) is
 * shown as "Open the event" (`label`), not as its address.
 */
export function messageTextParts(
  text: string,
  origin: string,
): { text: string; path?: string; label?: string }[] {
  const base = origin.replace(/\/$/, '');
  const escaped = base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`${escaped}(/[A-Za-z0-9/_-]*)`, 'g');
  const parts: { text: string; path?: string; label?: string }[] = [];
  let at = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > at) parts.push({ text: text.slice(at, match.index) });
    const path = match[1] || '/';
    const end = match.index + match[0].length;
    const alone =
      (match.index === 0 || text[match.index - 1] === '\n') && (end === text.length || text[end] === '\n');
    const label = alone ? linkLabel(path) : null;
    parts.push({ text: match[0], path, ...(label ? { label } : {}) });
    at = end;
  }
  if (at < text.length) parts.push({ text: text.slice(at) });
  return parts;
}

/** The wall clock of `zone` at `at` (ms), as the UTC instant with the same fields. */
function wallClock(at: number, zone: string): number {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(at));
  const field = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  return Date.UTC(
    field('year'),
    field('month') - 1,
    field('day'),
    field('hour'),
    field('minute'),
    field('second'),
  );
}

/** The instant (ms) the wall clock of `zone` shows `local` (a UTC instant carrying the wall clock's fields). */
function instantOfWallClock(local: number, zone: string): number {
  // The zone's offset at a first guess, then at the instant it gives (right across a change of daylight saving time).
  const first = local - (wallClock(local, zone) - local);
  return local - (wallClock(first, zone) - first);
}

const minutesOf = (clock: string) => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));

/**
 * When the quiet hours that hold an e-mail at `now` end (ms), or null when `now` is outside them (or there are
 * none): the e-mail goes then. A window whose end is earlier than its start runs across midnight.
 */
export function quietHoursEnd(quiet: QuietHours | null | undefined, now: number): number | null {
  if (!quiet) return null;
  const wall = wallClock(now, quiet.timeZone);
  const day = Math.floor(wall / 86_400_000) * 86_400_000;
  const minute = Math.floor((wall - day) / 60_000);
  const from = minutesOf(quiet.from);
  const to = minutesOf(quiet.to);
  const inside = from < to ? minute >= from && minute < to : minute >= from || minute < to;
  if (!inside) return null;
  const endDay = from > to && minute >= from ? day + 86_400_000 : day;
  return instantOfWallClock(endDay + to * 60_000, quiet.timeZone);
}
