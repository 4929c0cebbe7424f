import type { ChannelDataType } from './columns';
import { ReaderError } from './errors';

export interface ChannelColumn {
  column: number;
  channel: string;
  description: string | null;
  unit: string | null;
  /** The header cell was empty (often a delimiter at the end of every line). */
  unnamed: boolean;
}

/** What a format reader hands to `parseDataFile`: rows in file order, not yet sorted or checked for duplicates. */
export interface ReadTable {
  rowCount: number;
  /** UTC epoch ms per row; may be longer than rowCount. */
  timestamps: Float64Array;
  firstDataRow: number;
  /** File row of each data row when rows were skipped (empty spreadsheet rows); null when row i is firstDataRow + i. */
  rowNumbers: Int32Array | null;
  /** `values` holds integer codes (value = code / 10^codedDecimals) when codedDecimals >= 0 (readers/columns.ts), else the values. */
  channels: (ChannelColumn & {
    dataType: ChannelDataType;
    values: Float64Array;
    codedDecimals: number;
    decimals: number;
    texts: (string | null)[] | undefined;
  })[];
}

export function checkColumnCount(count: number, maxColumns: number): void {
  if (count > maxColumns) {
    throw new ReaderError(
      'TOO_MANY_COLUMNS',
      `The header has ${count > maxColumns + 1 ? count.toLocaleString('en-US') : 'more than ' + maxColumns.toLocaleString('en-US')} columns; a file may have at most ${maxColumns.toLocaleString('en-US')}.`,
    );
  }
}

const cleanOrNull = (s: string | undefined | null) => {
  const t = (s ?? '').trim();
  return t === '' ? null : t;
};

/** Finds the timestamp columns by name and names every other column as a channel. */
export function resolveColumns(
  header: string[],
  units: string[] | null,
  descriptions: string[] | null,
  timestampNames: string[],
  headerRow: number,
): { timestampColumns: number[]; channels: ChannelColumn[] } {
  const names = header.map((h) => h.trim());
  const timestampColumns = timestampNames.map((wanted) => {
    let at = names.indexOf(wanted.trim());
    if (at < 0) at = names.findIndex((n) => n.toLowerCase() === wanted.trim().toLowerCase());
    if (at < 0) {
      const shown =
        names
          .slice(0, 12)
          .map((n) => `'${n}'`)
          .join(', ') + (names.length > 12 ? ', …' : '');
      throw new ReaderError(
        'MISSING_TIMESTAMP_COLUMN',
        `The timestamp column '${wanted}' is not in the header (row ${headerRow}). The header has ${shown}. Check the delimiter and the header row of the data source.`,
      );
    }
    return at;
  });
  const seen = new Map<string, number>();
  const channels: ChannelColumn[] = [];
  names.forEach((name, column) => {
    if (timestampColumns.includes(column)) return;
    const channel = name === '' ? `Column${column + 1}` : name;
    const before = seen.get(channel);
    if (before !== undefined) {
      throw new ReaderError(
        'DUPLICATE_COLUMN',
        `The header (row ${headerRow}) names the column '${channel}' twice (columns ${before + 1} and ${column + 1}).`,
      );
    }
    seen.set(channel, column);
    channels.push({
      column,
      channel,
      unnamed: name === '',
      unit: cleanOrNull(units?.[column]),
      description: cleanOrNull(descriptions?.[column]),
    });
  });
  return { timestampColumns, channels };
}
