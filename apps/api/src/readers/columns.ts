import { ReaderError, quoteCell } from './errors';
import { parseIsoTimestamp } from './timestamps';

export type ChannelDataType = 'Double' | 'Integer' | 'UTCDateTime' | 'Boolean' | 'String';

/** Cell texts that mean "no value" in any column. */
export const MISSING_TOKENS = new Set(['', 'NaN', 'nan', 'N/A', 'null', '-']);

const BOOLEAN_TOKENS: Record<string, number> = { true: 1, false: 0, on: 1, off: 0 };

/** Exact powers of ten (10^0 to 10^22). */
export const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i);
const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/**
 * A column of integer codes back as values: value = code / 10^decimals, the correctly rounded quotient of two exact
 * numbers, the very double that parseFloat gives for the cell's text. Decimals 0: the codes are the values.
 */
export function valuesFromCodes(codes: Float64Array, decimals: number): Float64Array {
  if (decimals === 0) return codes;
  const p = POW10[decimals]!;
  const values = new Float64Array(codes.length);
  for (let i = 0; i < codes.length; i++) values[i] = codes[i]! / p;
  return values;
}

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
  const mantissa = text.split(/[eE]/)[0]!;
  const at = mantissa.indexOf(decimalSeparator);
  return at < 0 ? 0 : mantissa.length - at - 1;
}

/** Multiplies codes[from..to) by factor, unless one would pass 2^53: then answers false and changes nothing. */
function scaleCodes(codes: Float64Array, from: number, to: number, factor: number): boolean {
  let largest = 0;
  for (let i = from; i < to; i++) {
    const k = codes[i]!;
    if (k > largest) largest = k;
    else if (-k > largest) largest = -k;
  }
  if (largest * factor > MAX_SAFE) return false;
  for (let i = from; i < to; i++) codes[i]! *= factor;
  return true;
}

/** Codes[from..to) at `decimals` turned into their values, in place. */
function codesToValues(codes: Float64Array, from: number, to: number, decimals: number): void {
  if (decimals <= 0) return;
  const p = POW10[decimals]!;
  for (let i = from; i < to; i++) codes[i]! /= p;
}

/** The counts and codes of a ColumnSet, as one part of a file sends them to the other (structured clone). */
export interface ColumnState {
  coded: Int32Array;
  numbers: Int32Array;
  maxDecimals: Int32Array;
  booleans: Int32Array;
  dates: Int32Array;
  texts: Int32Array;
  slowNumbers: Uint8Array;
  firstNonNumeric: ({ row: number; text: string } | null)[];
}

/**
 * Values of the channel columns while a file is read, struct-of-arrays so that the delimited scanner
 * can write numbers straight into `values[col][row]`. Cells that are not plain numbers go through `text`.
 *
 * A column of plain numbers (the delimited scanner's digits, at most 15 of them) is kept as integer codes:
 * `values[col]` then holds code = ±digits scaled to the column's decimals (`coded[col]`), value = code / 10^decimals.
 * That saves the scanner a division per cell and hands the storage its codes without a packing scan
 * (storage/packed.ts `packCodes`). Any other value in the column (a number written otherwise, a boolean,
 * a date), or a code that would pass 2^53, turns the column into values (`coded[col]` = -1).
 */
export class ColumnSet {
  readonly values: Float64Array[];
  /** Per column: the decimals of the codes it holds, or -1 when it holds values. */
  readonly coded: Int32Array;
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
    /** The columns' memory (a ColumnArena's, or a whole file's shared by its parts), else fresh. */
    columns?: Float64Array[],
    /** Rows before the ones read here (the second part of a file read in two). */
    private readonly firstRow = 0,
  ) {
    this.values = columns ?? Array.from({ length: count }, () => new Float64Array(capacity));
    this.coded = new Int32Array(count);
    this.numbers = new Int32Array(count);
    this.maxDecimals = new Int32Array(count);
    this.booleans = new Int32Array(count);
    this.dates = new Int32Array(count);
    this.texts = new Int32Array(count);
    this.slowNumbers = new Uint8Array(count);
    this.firstNonNumeric = new Array(count).fill(null);
  }

  /**
   * A plain number of the delimited scanner whose decimals differ from the column's codes (or a column of values):
   * `mantissa` is its digits as an integer (< 10^15), `decimals` how many of them follow the separator.
   */
  digits(col: number, row: number, mantissa: number, decimals: number, negative: boolean): void {
    let d = this.coded[col]!;
    if (d >= 0 && decimals > d) d = this.rescale(col, row, decimals);
    if (d >= 0) {
      const k = mantissa * POW10[d - decimals]!;
      if (k <= MAX_SAFE) {
        this.values[col]![row] = negative ? -k : k;
        return;
      }
      this.toValues(col, row);
    }
    const v = decimals === 0 ? mantissa : mantissa / POW10[decimals]!;
    this.values[col]![row] = negative ? -v : v;
  }

  /** The codes of rows [0, rows) of a coded column scaled to more decimals; a column whose codes would pass 2^53 turns into values. Answers the column's decimals (-1: values). */
  private rescale(col: number, rows: number, decimals: number): number {
    const codes = this.values[col]!;
    const factor = POW10[decimals - this.coded[col]!]!;
    if (!scaleCodes(codes, this.firstRow, rows, factor)) {
      this.toValues(col, rows);
      return -1;
    }
    this.coded[col] = decimals;
    return decimals;
  }

  /** Rows [firstRow, rows) of a coded column as values; the column holds values from then on. */
  private toValues(col: number, rows: number): void {
    const d = this.coded[col]!;
    if (d < 0) return;
    codesToValues(this.values[col]!, this.firstRow, rows, d);
    this.coded[col] = -1;
  }

  /** What the reading of a part found, for the first part to take in (absorb). */
  state(): ColumnState {
    const { coded, numbers, maxDecimals, booleans, dates, texts, slowNumbers, firstNonNumeric } = this;
    return { coded, numbers, maxDecimals, booleans, dates, texts, slowNumbers, firstNonNumeric };
  }

  /**
   * Takes in the second part of a file read in two (rows [from, to) of the same memory; this set read the rows
   * before): counts add up, and a column coded at other decimals in each part, or coded in one and values in the
   * other, is made one again.
   */
  absorb(rest: ColumnState, from: number, to: number): void {
    for (let col = 0; col < this.count; col++) {
      const column = this.values[col]!;
      const mine = this.coded[col]!;
      const theirs = rest.coded[col]!;
      if (mine !== theirs) {
        if (mine >= 0 && theirs >= 0) {
          const finer = Math.max(mine, theirs);
          const [lo, hi] = mine < theirs ? [0, from] : [from, to];
          if (scaleCodes(column, lo, hi, POW10[finer - Math.min(mine, theirs)]!)) this.coded[col] = finer;
          else {
            codesToValues(column, lo, hi, Math.min(mine, theirs));
            codesToValues(column, mine < theirs ? from : 0, mine < theirs ? to : from, finer);
            this.coded[col] = -1;
          }
        } else {
          if (mine >= 0) codesToValues(column, 0, from, mine);
          else codesToValues(column, from, to, theirs);
          this.coded[col] = -1;
        }
      }
      this.numbers[col]! += rest.numbers[col]!;
      this.maxDecimals[col] = Math.max(this.maxDecimals[col]!, rest.maxDecimals[col]!);
      this.booleans[col]! += rest.booleans[col]!;
      this.dates[col]! += rest.dates[col]!;
      this.texts[col]! += rest.texts[col]!;
      this.slowNumbers[col]! |= rest.slowNumbers[col]!;
      this.firstNonNumeric[col] ??= rest.firstNonNumeric[col] ?? null;
    }
  }

  number(col: number, row: number, value: number, decimals: number): void {
    this.toValues(col, row);
    this.values[col]![row] = value;
    this.numbers[col]!++;
    if (decimals > this.maxDecimals[col]!) this.maxDecimals[col] = decimals;
  }

  boolean(col: number, row: number, value: boolean, fileRow: number, text: string): void {
    this.toValues(col, row);
    this.values[col]![row] = value ? 1 : 0;
    this.booleans[col]!++;
    this.noteNonNumeric(col, fileRow, text);
  }

  /** `naiveMs`: the logger's local clock read as UTC. */
  date(col: number, row: number, naiveMs: number, fileRow: number, text: string): void {
    this.toValues(col, row);
    this.values[col]![row] = naiveMs - this.offsetMs;
    this.dates[col]!++;
    this.noteNonNumeric(col, fileRow, text);
  }

  missing(col: number, row: number): void {
    this.values[col]![row] = NaN;
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
    this.values[col]![row] = NaN;
    this.texts[col]!++;
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
    const numbers = this.numbers[col]!;
    const booleans = this.booleans[col]!;
    const dates = this.dates[col]!;
    const texts = this.texts[col]!;
    const others = booleans + dates + texts;
    const values = this.values[col]!;
    if (others === 0) {
      if (numbers === 0 || this.maxDecimals[col]! > 0) return 'Double';
      if (this.slowNumbers[col]) {
        for (let i = 0; i < rowCount; i++)
          if (!Number.isNaN(values[i]) && !Number.isInteger(values[i])) return 'Double';
      }
      return 'Integer';
    }
    if (texts === 0 && dates === 0) {
      let zeroOne = true;
      for (let i = 0; i < rowCount && zeroOne; i++) {
        const v = values[i]!;
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
