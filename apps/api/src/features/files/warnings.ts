import {
  EARLIEST_EXPECTED_DATA,
  FAR_FROM_OTHER_FILES_MS,
  FUTURE_TOLERANCE_MS,
  type DataFileWarning,
} from '@portal/contracts/data-health';
import { formatDateTime } from '@portal/contracts/rules';

/** What the upload knows of a file and its data source when it warns (all of it at hand after the parse). */
export interface FileWarningInput {
  /** The file's columns (raw channel names). */
  columns: readonly string[];
  /** The data source's channel mappings: the column (source) and the measurement field it feeds (name). */
  mappings: readonly { source: string; name: string }[];
  /** UTC epoch ms, ascending. */
  timestamps: Float64Array;
  measureFrequencySeconds: number;
  /** A gap longer than this many samples is warned about. */
  gapSamples: number;
  /** The time of the upload (epoch ms). */
  now: number;
  /** The ship's data range before this file (epoch ms), null when it has none. */
  otherData: { min: number; max: number } | null;
  /** Rows the reader left out, with its first reasons (readers that refuse rows; none today refuse fewer than the file). */
  refusedRows?: { count: number; reasons: string[] };
}

const SHOWN_NAMES = 10;

/** 'A, B and C' or 'A, B, … and 7 more'. */
export function nameList(names: readonly string[], shown = SHOWN_NAMES): string {
  if (names.length <= 1) return names.join('');
  if (names.length <= shown) return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
  return `${names.slice(0, shown).join(', ')} and ${names.length - shown} more`;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** '45 s', '12 min', '2 h 5 min', '3 d 4 h'. */
export function formatSpan(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (ms < 60_000) return `${Math.round(ms / 1000)} s`;
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${days} d ${hours % 24} h` : `${days} d`;
}

/**
 * The warnings of an imported file (issue 17, "never silent"): mapped channels the file does not have, columns no
 * channel maps, rows refused, timestamps outside the expected range and time gaps longer than `gapSamples` samples.
 * None of them stops the import; they are answered with the upload and kept with the file.
 */
export function fileWarnings(input: FileWarningInput): DataFileWarning[] {
  const warnings: DataFileWarning[] = [];
  const columns = new Set(input.columns);
  const mappedSources = new Set(input.mappings.map((m) => m.source));

  const missing = input.mappings.filter((m) => !columns.has(m.source));
  if (missing.length > 0) {
    const names = [...new Set(missing.map((m) => m.source))];
    const shown = missing.map((m) => (m.source === m.name ? m.source : `${m.source} (${m.name})`));
    const message =
      missing.length === input.mappings.length
        ? `No column of the file matches a mapped channel, so its data is not used. Missing: ${nameList(shown)}. Check the channel mappings of the data source.`
        : `${missing.length} of the ${input.mappings.length} mapped channels ${missing.length === 1 ? 'is' : 'are'} not in the file: ${nameList(shown)}.`;
    warnings.push({ kind: 'missingChannels', message, names, count: missing.length });
  }

  const unmapped = input.columns.filter((c) => !mappedSources.has(c));
  if (unmapped.length > 0) {
    const message =
      input.mappings.length === 0
        ? `The data source has no channel mappings yet: the file's ${plural(unmapped.length, 'column is', 'columns are')} stored but not used.`
        : `${plural(unmapped.length, 'column', 'columns')} of the file ${unmapped.length === 1 ? 'is' : 'are'} not mapped to a channel: ${nameList(unmapped)}.`;
    warnings.push({ kind: 'unmappedColumns', message, names: unmapped, count: unmapped.length });
  }

  const refused = input.refusedRows;
  if (refused && refused.count > 0) {
    warnings.push({
      kind: 'refusedRows',
      message: `${plural(refused.count, 'row was', 'rows were')} refused: ${refused.reasons.slice(0, 3).join(' ')}`,
      count: refused.count,
    });
  }

  const ts = input.timestamps;
  const n = ts.length;
  if (n > 0) {
    const futureFrom = input.now + FUTURE_TOLERANCE_MS;
    let early = 0;
    let future = 0;
    for (let i = 0; i < n; i++) {
      const t = ts[i]!;
      if (t < EARLIEST_EXPECTED_DATA) early++;
      else if (t > futureFrom) future++;
    }
    if (future > 0) {
      warnings.push({
        kind: 'timestampsOutOfRange',
        message: `${plural(future, 'row has a timestamp', 'rows have timestamps')} in the future (up to ${formatDateTime(ts[n - 1]!)} UTC). Check the timestamp format and the time zone offset of the data source.`,
        count: future,
      });
    }
    if (early > 0) {
      warnings.push({
        kind: 'timestampsOutOfRange',
        message: `${plural(early, 'row has a timestamp', 'rows have timestamps')} before 2000 (from ${formatDateTime(ts[0]!)} UTC). Check the timestamp format of the data source.`,
        count: early,
      });
    }
    const other = input.otherData;
    const first = ts[0]!;
    const last = ts[n - 1]!;
    if (
      other &&
      future === 0 &&
      early === 0 &&
      (first > other.max + FAR_FROM_OTHER_FILES_MS || last < other.min - FAR_FROM_OTHER_FILES_MS)
    ) {
      warnings.push({
        kind: 'timestampsOutOfRange',
        message: `The file's data (${formatDateTime(first)} – ${formatDateTime(last)} UTC) is more than a year away from the ship's other data (${formatDateTime(other.min)} – ${formatDateTime(other.max)} UTC). Check the timestamp format and the time zone offset of the data source.`,
        count: n,
      });
    }

    const step = Math.max(1, input.measureFrequencySeconds) * 1000;
    const longest = { span: 0, at: 0 };
    let gaps = 0;
    const limit = input.gapSamples * step;
    for (let i = 1; i < n; i++) {
      const span = ts[i]! - ts[i - 1]!;
      if (span > limit) {
        gaps++;
        if (span > longest.span) Object.assign(longest, { span, at: i });
      }
    }
    if (gaps > 0) {
      const from = ts[longest.at - 1]!;
      const to = ts[longest.at]!;
      warnings.push({
        kind: 'timeGaps',
        message: `${plural(gaps, 'time gap is', 'time gaps are')} longer than ${input.gapSamples} samples (${formatSpan(limit)}); the longest is ${formatSpan(longest.span)}, from ${formatDateTime(from)} to ${formatDateTime(to)} UTC.`,
        count: gaps,
      });
    }
  }
  return warnings;
}
