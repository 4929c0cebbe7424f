import { ReaderError, quoteCell } from './errors';
import { parseIsoTimestamp } from './timestamps';

export type ChannelDataType = 'Double' | 'Integer' | 'UTCDateTime' | 'Boolean' | 'String';

/** Cell texts that mean "no value" in any column. */
export const MISSING_TOKENS = new Set(['', 'NaN', 'nan', 'N/A', 'null', '-']);

const BOOLEAN_TOKENS: Record<string, number> = { true: 1, false: 0, on: 1, off: 0 };

const NUMBER_TEXT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** A number written with the configured decimal separator; NaN when the text is not one. */
export function parseNumberText(text: string, decimalSeparator: '.' | ','): number {
  let t = text;
  if (decimalSeparator === ',') {
    if (t.includes('.')) return NaN;
    t = t.replace(',', '.');
  }
  return NUMBER_TEXT.test(t) ? Number(t) : NaN;
}

export function digitsAfterSeparator(text: string, decimalSeparator: '.' | ','): number {
  const mantissa = text.split(/[eE]/)[0];
  const at = mantissa.indexOf(decimalSeparator);
  return at < 0 ? 0 : mantissa.length - at - 1;
}

/**
 * Values of the channel columns while a file is read, struct-of-arrays so that the delimited scanner
 * can write numbers straight into `values[col][row]`. Cells that are not plain numbers go through `text`.
 */
export class ColumnSet {
  readonly values: Float64Array[];
  readonly numbers: Int32Array;
  readonly maxDecimals: Int32Array;
  readonly booleans: Int32Array;
  readonly dates: Int32Array;
  readonly texts: Int32Array;
  /** Set when some number came through the text path (exponent, long mantissa): integrality is then checked on the values. */
  readonly slowNumbers: Uint8Array;
  readonly firstNonNumeric: ({ row: number; text: string } | null)[];

  constructor(
    readonly count: number,
    capacity: number,
    private readonly decimalSeparator: '.' | ',',
    private readonly parseDate: (text: string) => number,
    private readonly offsetMs: number,
  ) {
    this.values = Array.from({ length: count }, () => new Float64Array(capacity));
    this.numbers = new Int32Array(count);
    this.maxDecimals = new Int32Array(count);
    this.booleans = new Int32Array(count);
    this.dates = new Int32Array(count);
    this.texts = new Int32Array(count);
    this.slowNumbers = new Uint8Array(count);
    this.firstNonNumeric = new Array(count).fill(null);
  }

  number(col: number, row: number, value: number, decimals: number): void {
    this.values[col][row] = value;
    this.numbers[col]++;
    if (decimals > this.maxDecimals[col]) this.maxDecimals[col] = decimals;
  }

  boolean(col: number, row: number, value: boolean, fileRow: number, text: string): void {
    this.values[col][row] = value ? 1 : 0;
    this.booleans[col]++;
    this.noteNonNumeric(col, fileRow, text);
  }

  /** `naiveMs`: the logger's local clock read as UTC. */
  date(col: number, row: number, naiveMs: number, fileRow: number, text: string): void {
    this.values[col][row] = naiveMs - this.offsetMs;
    this.dates[col]++;
    this.noteNonNumeric(col, fileRow, text);
  }

  missing(col: number, row: number): void {
    this.values[col][row] = NaN;
  }

  /** Any cell given as text: a missing token, a number, a boolean word, a date, or free text. */
  text(col: number, row: number, raw: string, fileRow: number): void {
    const t = raw.trim();
    if (MISSING_TOKENS.has(t)) return this.missing(col, row);
    const n = parseNumberText(t, this.decimalSeparator);
    if (!Number.isNaN(n)) {
      this.slowNumbers[col] = 1;
      return this.number(col, row, n, digitsAfterSeparator(t, this.decimalSeparator));
    }
    const b = BOOLEAN_TOKENS[t.toLowerCase()];
    if (b !== undefined) return this.boolean(col, row, b === 1, fileRow, raw);
    const iso = parseIsoTimestamp(t);
    if (iso) {
      this.date(col, row, iso.absolute ? iso.ms + this.offsetMs : iso.ms, fileRow, raw);
      return;
    }
    const d = this.parseDate(t);
    if (!Number.isNaN(d)) return this.date(col, row, d, fileRow, raw);
    this.values[col][row] = NaN;
    this.texts[col]++;
    this.noteNonNumeric(col, fileRow, raw);
  }

  private noteNonNumeric(col: number, fileRow: number, text: string): void {
    if (this.firstNonNumeric[col] === null) this.firstNonNumeric[col] = { row: fileRow, text };
  }

  /**
   * The data type of a column from what its cells held. A column whose cells are mostly numbers but holds some
   * other text is a NON_NUMERIC error naming the first such cell: a logger writing "ERR" into a measurement is
   * a fault to fix in the file, not a reason to import the channel as text.
   */
  dataType(col: number, rowCount: number, columnName: string): ChannelDataType {
    const numbers = this.numbers[col];
    const booleans = this.booleans[col];
    const dates = this.dates[col];
    const texts = this.texts[col];
    const others = booleans + dates + texts;
    const values = this.values[col];
    if (others === 0) {
      if (numbers === 0 || this.maxDecimals[col] > 0) return 'Double';
      if (this.slowNumbers[col]) {
        for (let i = 0; i < rowCount; i++) if (!Number.isNaN(values[i]) && !Number.isInteger(values[i])) return 'Double';
      }
      return 'Integer';
    }
    if (texts === 0 && dates === 0) {
      let zeroOne = true;
      for (let i = 0; i < rowCount && zeroOne; i++) {
        const v = values[i];
        if (!Number.isNaN(v) && v !== 0 && v !== 1) zeroOne = false;
      }
      if (zeroOne) return 'Boolean';
    }
    if (texts === 0 && booleans === 0 && numbers === 0) return 'UTCDateTime';
    if (numbers >= others) {
      const bad = this.firstNonNumeric[col]!;
      throw new ReaderError(
        'NON_NUMERIC',
        `Row ${bad.row}, column '${columnName}': ${quoteCell(bad.text)} is not a number, but the column holds numbers. ` +
          `Leave the cell empty (or write NaN) for a missing value.`,
      );
    }
    return 'String';
  }
}
