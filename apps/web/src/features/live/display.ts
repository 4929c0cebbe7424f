import type { LiveReadout, LiveValue } from '@portal/contracts/live';
import { formatDateTime, formatDateTimeSeconds, NO_DATA } from '@portal/contracts/rules';

/** Units of a latitude or a longitude: four decimals of a degree are about 11 m. */
const DEGREES = new Set(['°', 'deg', 'degrees']);

/**
 * A streamed value as the live readout shows it: grouped thousands, decimals by size (a flow of a thousand kg/h one,
 * a fraction four) and four for a position in degrees, its unit after it; no value is 'No data'.
 */
export function liveValueText(value: number | null, unit: string | null): string {
  if (value === null || !Number.isFinite(value)) return NO_DATA;
  const size = Math.abs(value);
  const digits = DEGREES.has(unit?.trim() ?? '') ? 4 : size >= 100 ? 1 : size >= 1 ? 3 : 4;
  const text = value.toLocaleString('en-US', { maximumFractionDigits: digits });
  return unit ? `${text} ${unit}` : text;
}

/** What a value is called: its mapping's name, else the raw channel as the logger names it. */
export const liveValueLabel = (value: Pick<LiveValue, 'name' | 'channel'>): string =>
  value.name ?? value.channel;

/** When the value was measured (the ship's source time, UTC), and whether it came late from the ship's buffer. */
export const liveTimeText = (value: Pick<LiveValue, 'sourceTime' | 'isHistorical'>): string =>
  `${formatDateTimeSeconds(value.sourceTime)}${value.isHistorical ? ', replayed' : ''}`;

/** The edge node's state in words (UTC; the last message to the second). */
export function linkText(link: NonNullable<LiveReadout['link']>): string {
  if (!link.online) return `Offline since ${formatDateTime(link.since)}`;
  if (!link.lastMessageOn) return `Online since ${formatDateTime(link.since)}`;
  const second = Math.floor(new Date(link.lastMessageOn).getTime() / 1000) * 1000;
  return `Online, last message ${formatDateTimeSeconds(second)}`;
}
