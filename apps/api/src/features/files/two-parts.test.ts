import { describe, expect, it } from 'vitest';
import {
  DEFAULT_DELIMITED_CONFIGURATION,
  type DelimitedReaderConfiguration,
} from '@portal/contracts/readers';
import {
  joinDelimitedParts,
  parseDataFile,
  readDelimitedPart,
  ReaderError,
  type ParsedDataFile,
} from '../../readers';
import { planParts, TWO_PARTS_MIN_BYTES } from './parse-off-thread';

/**
 * A large delimited file read in two parts at once (by the two parse workers; here in this thread, one part after the
 * other) reads exactly as the whole file read at once: values, types, codes, order, and the same error.
 */
const configuration: DelimitedReaderConfiguration = {
  ...DEFAULT_DELIMITED_CONFIGURATION,
  timestampColumns: ['Timestamp'],
  timestampFormat: 'YYYY-MM-DD HH:mm:ss',
};
const options = { utcTimezoneOffsetInMinutes: 60 };

function file(
  rows: number,
  cell: (row: number, column: number) => string,
  columns = 8,
  stamp = (row: number) => row,
): Buffer {
  const lines = [['Timestamp', ...Array.from({ length: columns }, (_, c) => `C${c}`)].join(',')];
  for (let row = 0; row < rows; row++) {
    lines.push(
      [
        new Date(Date.UTC(2026, 0, 1) + stamp(row) * 1000).toISOString().slice(0, 19).replace('T', ' '),
        ...Array.from({ length: columns }, (_, c) => cell(row, c)),
      ].join(','),
    );
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}

async function inTwoParts(content: Buffer): Promise<ParsedDataFile> {
  const request = { fileName: 'big.csv', content, readerId: 'delimited-text', configuration, options };
  const plan = planParts(request);
  if (!plan) throw new Error('no plan');
  const memory = new SharedArrayBuffer((plan.columns + 1) * plan.capacity * 8);
  const views = Array.from(
    { length: plan.columns + 1 },
    (_, i) => new Float64Array(memory, i * plan.capacity * 8, plan.capacity),
  );
  const first = readDelimitedPart(content, configuration, options, {
    start: 0,
    end: plan.mid,
    rowsBefore: 0,
    memory: views,
  });
  expect(first.rowCount).toBe(plan.rowsBefore);
  const rest = readDelimitedPart(content, configuration, options, {
    start: plan.mid,
    end: content.length,
    rowsBefore: plan.rowsBefore,
    memory: views,
  });
  // Through a structured clone, as the workers pass it.
  const restOfFile = structuredClone({ state: rest.columns.state(), rowCount: rest.rowCount });
  return joinDelimitedParts(first, restOfFile, configuration, options);
}

async function outcome(read: Promise<ParsedDataFile>): Promise<unknown> {
  try {
    const parsed = await read;
    return {
      rowCount: parsed.rowCount,
      timestamps: Array.from(parsed.timestamps),
      channels: parsed.channels.map((ch) => ({
        channel: ch.channel,
        dataType: ch.dataType,
        decimals: ch.decimals,
        codes: ch.codes?.decimals ?? null,
        values: Array.from(ch.values, (v) => (Object.is(v, -0) ? '-0' : v)),
        texts: ch.texts,
      })),
    };
  } catch (error) {
    if (error instanceof ReaderError) return { code: error.code, message: error.message };
    throw error;
  }
}

async function expectSameAsWhole(content: Buffer): Promise<unknown> {
  expect(content.length).toBeGreaterThanOrEqual(TWO_PARTS_MIN_BYTES);
  const whole = await outcome(
    parseDataFile({ fileName: 'big.csv', content }, { readerId: 'delimited-text', configuration }, options),
  );
  expect(await outcome(inTwoParts(content))).toEqual(whole);
  return whole;
}

const ROWS = 180_000;

describe('a large file read in two parts', () => {
  it('reads as the whole file: decimals that differ between the halves, -0, missing cells, a code past 2^53, words', async () => {
    const whole = (await expectSameAsWhole(
      file(ROWS, (row, c) => {
        const late = row > ROWS * 0.7;
        if (c === 0) return late ? (row / 1000).toFixed(3) : (row % 97).toFixed(1);
        if (c === 1) return row % 11 === 0 ? '' : row === 5 ? '-0.0' : ((row % 300) - 150).toFixed(2);
        if (c === 2) return row === ROWS - 3 ? '123456789012345' : (row % 50).toFixed(4);
        if (c === 3) return row < 10 ? 'n/a' : 'text';
        if (c === 4) return row === 40 ? 'NaN' : String(row % 1000);
        if (c === 5) return row > ROWS / 2 ? '1.5e2' : '7';
        if (c === 6) return row % 2 ? 'on' : 'off';
        return String(row);
      }),
    )) as { channels: { dataType: string; codes: number | null }[] };
    expect(whole.channels.map((c) => [c.dataType, c.codes])).toEqual([
      ['Double', 3],
      ['Double', 2],
      ['Double', null],
      ['String', null],
      ['Integer', 0],
      ['Double', null],
      ['Boolean', null],
      ['Integer', 0],
    ]);
  });

  it('reads as the whole file when every column is good, including rows out of order across the halves', async () => {
    const whole = (await expectSameAsWhole(
      file(
        ROWS,
        (row, c) => (((row * (c + 3)) % 2000) / 10 ** (c % 3)).toFixed(c % 3),
        8,
        (row) => (row === 10 ? ROWS + 5 : row),
      ),
    )) as {
      channels: { codes: number | null }[];
    };
    expect(whole.channels.map((c) => c.codes)).toEqual([0, 1, 2, 0, 1, 2, 0, 1]);
  });

  it('answers the same error as the whole file for a bad row in either half, and a timestamp repeated across them', async () => {
    const good = (row: number, c: number) => String((row + c) % 10_000);
    for (const bad of [1000, ROWS - 1000]) {
      const lines = file(ROWS, good).toString().split('\n');
      lines[bad + 1] = lines[bad + 1]!.split(',').slice(0, 4).join(',');
      const error = (await expectSameAsWhole(Buffer.from(lines.join('\n')))) as {
        code: string;
        message: string;
      };
      expect(error).toMatchObject({
        code: 'ROW_LENGTH',
        message: expect.stringContaining(`Row ${bad + 2} has 4 values`),
      });
    }
    // A word among numbers, in the second half: the same error, row and all.
    const word = file(ROWS, (row, c) => (row === ROWS - 7 && c === 2 ? 'ERR' : good(row, c)));
    expect(await expectSameAsWhole(word)).toMatchObject({
      code: 'NON_NUMERIC',
      message: expect.stringContaining(`Row ${ROWS - 7 + 2}`),
    });
    // A line too long in the second half, with a short row in the first: the long line is the file's error, as read whole.
    const lines = file(ROWS, good).toString().split('\n');
    lines[100] = lines[100]!.split(',').slice(0, 3).join(',');
    lines[ROWS - 50] = `${lines[ROWS - 50]}${'9'.repeat(1024 * 1024)}`;
    expect(await expectSameAsWhole(Buffer.from(lines.join('\n')))).toMatchObject({
      code: 'LINE_TOO_LONG',
      message: expect.stringContaining(`Row ${ROWS - 49} is`),
    });
    const repeated = (await expectSameAsWhole(
      file(ROWS, good, 8, (row) => (row === ROWS - 5 ? 20 : row)),
    )) as { code: string };
    expect(repeated.code).toBe('DUPLICATE_TIMESTAMP');
  });

  it('is not planned for files it would not read the same: quotes, a byte order mark, another encoding, small files', () => {
    const content = file(ROWS, (row) => String(row));
    const request = { fileName: 'big.csv', content, readerId: 'delimited-text', configuration, options };
    expect(planParts(request)).not.toBeNull();
    const quoted = Buffer.from(content.toString().replace('C0', '"C0"'));
    expect(planParts({ ...request, content: quoted })).toBeNull();
    expect(
      planParts({ ...request, content: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), content]) }),
    ).toBeNull();
    expect(planParts({ ...request, configuration: { ...configuration, encoding: 'latin1' } })).toBeNull();
    expect(planParts({ ...request, content: content.subarray(0, 1024 * 1024) })).toBeNull();
  });
});
