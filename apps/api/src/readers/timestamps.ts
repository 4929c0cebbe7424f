/**
 * Timestamp parsing of the readers. A parser answers the logger's local clock as "naive" epoch milliseconds
 * (the clock reading taken as if it were UTC) or NaN; the caller subtracts the data source offset.
 * ISO texts with a zone are already absolute: they answer `{ absolute: true }` through `parseIsoTimestamp`.
 */

import { TIMESTAMP_FORMATS, isNamedTimestampFormat } from '@portal/contracts/readers';

const MS_PER_DAY = 86_400_000;
/** Days between the Excel epoch (1899-12-30, Lotus leap-year bug included) and 1970-01-01. */
const EXCEL_EPOCH_OFFSET_DAYS = 25_569;

type Part = { token: 'Y' | 'M' | 'D' | 'H' | 'm' | 's' | 'S'; width: number } | { literal: number };

const TOKENS: [string, 'Y' | 'M' | 'D' | 'H' | 'm' | 's' | 'S'][] = [
  ['YYYY', 'Y'],
  ['SSS', 'S'],
  ['MM', 'M'],
  ['DD', 'D'],
  ['HH', 'H'],
  ['mm', 'm'],
  ['ss', 's'],
];

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Compiles a format of the tokens YYYY MM DD HH mm ss SSS (other characters literal) into a strict, fixed-width parser. */
export function compileTimestampFormat(format: string): (text: string) => number {
  const parts: Part[] = [];
  for (let i = 0; i < format.length;) {
    const hit = TOKENS.find(([t]) => format.startsWith(t, i));
    if (hit) {
      parts.push({ token: hit[1], width: hit[0].length });
      i += hit[0].length;
    } else {
      parts.push({ literal: format.charCodeAt(i) });
      i++;
    }
  }
  const width = parts.reduce((n, p) => n + ('literal' in p ? 1 : p.width), 0);
  return (raw: string) => {
    const text = raw.length === width ? raw : raw.trim();
    if (text.length !== width) return NaN;
    let year = 1970;
    let month = 1;
    let day = 1;
    let hour = 0;
    let minute = 0;
    let second = 0;
    let milli = 0;
    let i = 0;
    for (const p of parts) {
      if ('literal' in p) {
        if (text.charCodeAt(i) !== p.literal) return NaN;
        i++;
        continue;
      }
      let n = 0;
      for (let k = 0; k < p.width; k++, i++) {
        const d = text.charCodeAt(i) - 48;
        if (d < 0 || d > 9) return NaN;
        n = n * 10 + d;
      }
      switch (p.token) {
        case 'Y':
          year = n;
          break;
        case 'M':
          month = n;
          break;
        case 'D':
          day = n;
          break;
        case 'H':
          hour = n;
          break;
        case 'm':
          minute = n;
          break;
        case 's':
          second = n;
          break;
        case 'S':
          milli = n;
          break;
      }
    }
    if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return NaN;
    if (day > 28 && day > daysInMonth(year, month)) return NaN;
    return Date.UTC(year, month - 1, day, hour, minute, second, milli);
  };
}

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/** ISO 8601 (date, optional time, optional fraction and zone). `absolute` when the text carries its own zone. */
export function parseIsoTimestamp(raw: string): { ms: number; absolute: boolean } | null {
  const m = ISO.exec(raw.trim());
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const [hour, minute, second] = [Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)];
  const milli = m[7] ? Math.round(Number(`0.${m[7]}`) * 1000) : 0;
  if (
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > daysInMonth(year, month) ||
    hour > 23 ||
    minute > 59 ||
    second > 59
  )
    return null;
  let ms = Date.UTC(year, month - 1, day, hour, minute, second, milli);
  const zone = m[8];
  if (!zone) return { ms, absolute: false };
  if (zone.toUpperCase() !== 'Z') {
    const sign = zone[0] === '-' ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const offset = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || 0);
    ms -= sign * offset * 60_000;
  }
  return { ms, absolute: true };
}

/** Excel serial day number (days since 1899-12-30, fraction = time of day) to naive milliseconds. */
export function excelSerialToMs(serial: number): number {
  if (!Number.isFinite(serial) || serial <= 0) return NaN;
  return Math.round((serial - EXCEL_EPOCH_OFFSET_DAYS) * MS_PER_DAY);
}

const UNIX_TEXT = /^[+-]?\d+(?:\.\d+)?$/;

/** Unix seconds or milliseconds (a fraction allowed) to UTC ms; NaN when the text is not such a number. */
export function parseUnixTimestamp(
  text: string,
  unit: 'seconds' | 'milliseconds',
  decimalSeparator: '.' | ',',
): number {
  const t = decimalSeparator === ',' ? text.trim().replace(',', '.') : text.trim();
  if (!UNIX_TEXT.test(t)) return NaN;
  const n = Number(t);
  return Math.round(unit === 'seconds' ? n * 1000 : n);
}

/** The parser of naive local clock readings for a pattern; NaN for the named formats (which are not patterns). */
export function naiveFormatParser(format: string): (text: string) => number {
  return isNamedTimestampFormat(format) ? () => NaN : compileTimestampFormat(format);
}

/** A parser of timestamp texts per the reader configuration, answering UTC epoch ms (NaN when the text does not match). */
export function timestampTextParser(
  format: string,
  decimalSeparator: '.' | ',',
  offsetMinutes: number,
): (text: string) => number {
  const offsetMs = offsetMinutes * 60_000;
  switch (format) {
    case TIMESTAMP_FORMATS.iso:
      return (text) => {
        const r = parseIsoTimestamp(text);
        if (!r) return NaN;
        return r.absolute ? r.ms : r.ms - offsetMs;
      };
    case TIMESTAMP_FORMATS.unixSeconds:
      return (text) => parseUnixTimestamp(text, 'seconds', decimalSeparator);
    case TIMESTAMP_FORMATS.unixMilliseconds:
      return (text) => parseUnixTimestamp(text, 'milliseconds', decimalSeparator);
    case TIMESTAMP_FORMATS.excel:
      return (text) => {
        const t = decimalSeparator === ',' ? text.trim().replace(',', '.') : text.trim();
        if (!/^\d+(\.\d+)?$/.test(t)) return NaN;
        return excelSerialToMs(Number(t)) - offsetMs;
      };
    default: {
      const parse = compileTimestampFormat(format);
      return (text) => parse(text) - offsetMs;
    }
  }
}

/** Formats UTC epoch ms back in the logger's local clock, for messages. */
export function formatLocal(utcMs: number, offsetMinutes: number): string {
  return new Date(utcMs + offsetMinutes * 60_000)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.000Z$/, '')
    .replace('Z', '');
}

export const MS_IN_DAY = MS_PER_DAY;
