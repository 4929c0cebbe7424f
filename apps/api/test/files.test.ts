import { zipSync, strToU8 } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { healthHeadline, type DataHealth, type DataHealthSummary } from '@portal/contracts/data-health';
import { OFF_THREAD_MIN_BYTES, TWO_PARTS_MIN_BYTES } from '../src/features/files/parse-off-thread';
import { readRawSamples } from '../src/storage';
import { startTestServer, type TestServer } from './harness';
import { CSV_CONFIGURATION, createCsvDataSource, csvFile, ingestionCounts, sendFile } from './upload-helpers';

let server: TestServer;
let facilityId: string;
let dataSourceId: string;
let uploadUrl: string;

/** Marks every entry of a zip as encrypted (general purpose bit 0), in the local and central headers. */
function markEncrypted(zip: Uint8Array): Buffer {
  const buf = Buffer.from(zip);
  for (let i = 0; i + 4 <= buf.length; i++) {
    const sig = buf.readUInt32LE(i);
    if (sig === 0x04034b50) buf.writeUInt16LE(buf.readUInt16LE(i + 6) | 1, i + 6);
    else if (sig === 0x02014b50) buf.writeUInt16LE(buf.readUInt16LE(i + 8) | 1, i + 8);
  }
  return buf;
}

const facility = async () => {
  const ships = (await (await server.as('admin')).get('/api/facilities')).json() as {
    id: string;
    dataTimeStampMin: string | null;
    dataTimeStampMax: string | null;
    dataCoverage: number | null;
  }[];
  return ships.find((s) => s.id === facilityId)!;
};

const upload = (fileName: string, content: Buffer | string, username = 'admin') =>
  sendFile(server, username, 'POST', uploadUrl, fileName, content);

beforeAll(async () => {
  server = await startTestServer();
  facilityId = server.seed.facilityIds.atlantic_meridian!;
  dataSourceId = await createCsvDataSource(server, facilityId, { utcTimezoneOffsetInMinutes: 60 });
  uploadUrl = `/api/algorithm/facilitydatasource/${dataSourceId}/file`;
});
afterAll(async () => {
  await server?.close();
});

describe('upload and storage', () => {
  it('imports a CSV: timestamps in UTC by the data source offset, every raw column stored, the ship range and coverage set', async () => {
    const response = await upload('day1.csv', csvFile({ start: '2026-03-01 01:00:00', rows: 120 }));
    expect(response.statusCode).toBe(200);
    // The data source maps no channel yet: the upload says its columns are not used.
    expect(response.json()).toEqual({
      ids: [expect.any(String)],
      errorMessages: [],
      // The upload queues the execution of its range (features/executions/upload.ts).
      execution: { id: expect.any(String), joined: false },
      warnings: [
        {
          id: response.json().ids[0],
          fileName: 'day1.csv',
          warnings: [
            {
              kind: 'unmappedColumns',
              message:
                "The data source has no channel mappings yet: the file's 3 columns are stored but not used.",
              names: ['SO2', 'CO2', 'Flow'],
              count: 3,
            },
          ],
        },
      ],
    });
    const files = (await (await server.as('admin')).get(uploadUrl)).json();
    // Local clock 01:00 at UTC+60 min is 00:00 UTC.
    expect(files).toEqual([
      expect.objectContaining({
        fileName: 'day1.csv',
        timeStampMin: '2026-03-01T00:00:00.000Z',
        timeStampMax: '2026-03-01T01:59:00.000Z',
        rowCount: 120,
      }),
    ]);
    const ship = await facility();
    expect(ship).toMatchObject({
      dataTimeStampMin: '2026-03-01T00:00:00.000Z',
      dataTimeStampMax: '2026-03-01T01:59:00.000Z',
      dataCoverage: 100,
    });

    const [samples] = await readRawSamples(server.services.database.db, facilityId, {
      from: new Date('2026-03-01T00:30:00Z'),
      to: new Date('2026-03-01T00:31:00Z'),
    });
    expect(samples!.dataSourceId).toBe(dataSourceId);
    expect([...samples!.timestamps]).toEqual([
      Date.parse('2026-03-01T00:30:00Z'),
      Date.parse('2026-03-01T00:31:00Z'),
    ]);
    expect(Object.keys(samples!.columns).sort()).toEqual(['CO2', 'Flow', 'SO2']);
    expect([...samples!.columns.CO2!]).toEqual([30.1, 31.1]);
  });

  it('recognises a re-upload of the same content and does not import it twice', async () => {
    const before = await ingestionCounts(server);
    const response = await upload('day1-again.csv', csvFile({ start: '2026-03-01 01:00:00', rows: 120 }));
    expect(response.json().ids).toEqual([]);
    expect(response.json().errorMessages).toEqual([
      expect.stringMatching(/^day1-again\.csv: already imported on \d{4}\.\d{2}\.\d{2} \d{2}:\d{2}$/),
    ]);
    expect(await ingestionCounts(server)).toEqual(before);
  });

  it('imports the files of a zip and answers each rejected entry by name; coverage counts the gap', async () => {
    const zip = zipSync({
      'day3.csv': strToU8(csvFile({ start: '2026-03-03 01:00:00', rows: 60 })),
      'notes.pdf': strToU8('not data'),
    });
    const response = await upload('days.zip', Buffer.from(zip));
    expect(response.json().ids).toHaveLength(1);
    expect(response.json().errorMessages).toEqual([expect.stringContaining('notes.pdf')]);
    const ship = await facility();
    expect(ship.dataTimeStampMax).toBe('2026-03-03T00:59:00.000Z');
    // 180 samples present of the 2 days + 1 hour expected at one a minute.
    const expected =
      Math.floor((Date.parse('2026-03-03T00:59:00Z') - Date.parse('2026-03-01T00:00:00Z')) / 60_000) + 1;
    expect(ship.dataCoverage).toBeCloseTo(Math.round((180 / expected) * 1000) / 10, 5);
  });

  it('parses large files sent at once in the worker thread, one after the other in its reused memory, each stored exactly', async () => {
    // Different shapes (rows, channels, decimals), so a file read in the memory of the one before would show.
    const files = [
      {
        name: 'big-a.csv',
        start: '2026-07-01 00:00:00',
        rows: 45_000,
        channels: Array.from({ length: 8 }, (_, i) => `A${i}`),
        value: (r: number, c: number) => (((r * 3 + c * 17) % 5000) / 100).toFixed(2),
      },
      {
        name: 'big-b.csv',
        start: '2026-09-01 00:00:00',
        rows: 30_000,
        channels: Array.from({ length: 14 }, (_, i) => `B${i}`),
        value: (r: number, c: number) => String((r * 11 + c) % 700),
      },
    ];
    const contents = files.map((f) => csvFile(f));
    for (const content of contents) expect(content.length).toBeGreaterThan(OFF_THREAD_MIN_BYTES);
    const responses = await Promise.all(files.map((f, i) => upload(f.name, contents[i]!)));
    for (const [i, f] of files.entries()) {
      expect(responses[i]!.json()).toMatchObject({ ids: [expect.any(String)], errorMessages: [] });
      const start = Date.parse(`${f.start.replace(' ', 'T')}Z`);
      const [samples] = await readRawSamples(server.services.database.db, facilityId, {
        from: new Date(start - 86_400_000),
        to: new Date(start + f.rows * 60_000 + 86_400_000),
        channels: f.channels,
      });
      expect(samples!.timestamps.length).toBe(f.rows);
      for (const [c, name] of f.channels.entries()) {
        const column = samples!.columns[name]!;
        for (let r = 0; r < f.rows; r += 997)
          expect(column[r], `${f.name} ${name} row ${r}`).toBe(Number(f.value(r, c)));
        expect(column[f.rows - 1]).toBe(Number(f.value(f.rows - 1, c)));
      }
    }
    for (const response of responses)
      expect(
        (await (await server.as('admin')).delete(`${uploadUrl}/${response.json().ids[0]}?deleteData=true`))
          .statusCode,
      ).toBe(204);
  });

  it('reads a file of 8 MB or more in two halves at once, by both workers, and stores exactly what it holds; a bad row in the second half is named', async () => {
    const channels = Array.from({ length: 10 }, (_, i) => `H${i}`);
    const value = (r: number, c: number) =>
      (r > 70_000 && c === 3 ? ((r * 13) % 9000) / 1000 : ((r * 7 + c * 13) % 1000) / 10).toFixed(
        r > 70_000 && c === 3 ? 3 : 1,
      );
    const content = csvFile({ start: '2026-10-01 00:00:00', rows: 130_000, channels, value });
    expect(content.length).toBeGreaterThan(TWO_PARTS_MIN_BYTES);
    const response = await upload('halves.csv', content);
    expect(response.json()).toMatchObject({ ids: [expect.any(String)], errorMessages: [] });
    // The data source's clock runs an hour ahead of UTC.
    const start = Date.parse('2026-09-30T23:00:00Z');
    const [samples] = await readRawSamples(server.services.database.db, facilityId, {
      from: new Date(start - 86_400_000),
      to: new Date(start + 131_000 * 60_000),
      channels,
    });
    expect(samples!.timestamps.length).toBe(130_000);
    expect(samples!.timestamps[129_999]).toBe(start + 129_999 * 60_000);
    for (const [c, name] of channels.entries()) {
      for (let r = 0; r < 130_000; r += 1_999)
        expect(samples!.columns[name]![r], `${name} row ${r}`).toBe(Number(value(r, c)));
    }
    expect(
      (await (await server.as('admin')).delete(`${uploadUrl}/${response.json().ids[0]}?deleteData=true`))
        .statusCode,
    ).toBe(204);

    const lines = content.split('\n');
    lines[120_001] = lines[120_001]!.split(',').slice(0, 5).join(',');
    const before = await ingestionCounts(server);
    const broken = await upload('halves-broken.csv', lines.join('\n'));
    expect(broken.json()).toEqual({
      ids: [],
      errorMessages: ['halves-broken.csv: Row 120002 has 5 values, but the header (row 1) has 11 columns.'],
      warnings: [],
      execution: null,
    });
    expect(await ingestionCounts(server)).toEqual(before);
  });

  it('parses a large file in the worker thread and stores exactly what it holds', async () => {
    const channels = Array.from({ length: 10 }, (_, i) => `Ch${i}`);
    const content = csvFile({
      start: '2026-05-01 01:00:00',
      rows: 40_000,
      channels,
      value: (r, c) => (((r * 7 + c * 13) % 1000) / 10).toFixed(1),
    });
    expect(content.length).toBeGreaterThan(OFF_THREAD_MIN_BYTES);
    const response = await upload('large.csv', content);
    expect(response.json()).toMatchObject({ ids: [expect.any(String)], errorMessages: [] });
    const [samples] = await readRawSamples(server.services.database.db, facilityId, {
      from: new Date('2026-05-01T00:00:00Z'),
      to: new Date('2026-06-01T00:00:00Z'),
      channels: ['Ch3'],
    });
    expect(samples!.timestamps.length).toBe(40_000);
    expect(samples!.timestamps[39_999]).toBe(Date.parse('2026-05-01T00:00:00Z') + 39_999 * 60_000);
    expect([...samples!.columns.Ch3!.subarray(0, 3)]).toEqual([3.9, 4.6, 5.3]);
    expect(samples!.columns.Ch3![39_999]).toBe(((39_999 * 7 + 3 * 13) % 1000) / 10);
    const key = { facilityId, dataFileId: response.json().ids[0] as string };
    const { originals } = server.services.database;
    expect((await originals.read(server.services.database.db, key))?.toString()).toBe(content);
    // Deleted with its data, the ship's range is as before (the later tests count the samples).
    expect(
      (await (await server.as('admin')).delete(`${uploadUrl}/${response.json().ids[0]}?deleteData=true`))
        .statusCode,
    ).toBe(204);
    expect((await facility()).dataTimeStampMax).toBe('2026-03-03T00:59:00.000Z');
    // The original went with it.
    expect(await originals.read(server.services.database.db, key)).toBeNull();
    expect(await originals.storedFileIds(server.services.database.db)).not.toContain(key.dataFileId);
  });

  it('merges the files of a data source in time order when reading raw samples', async () => {
    const [samples] = await readRawSamples(server.services.database.db, facilityId, {
      from: new Date('2026-03-01T01:58:00Z'),
      to: new Date('2026-03-03T00:01:00Z'),
      channels: ['SO2'],
    });
    expect(samples!.timestamps.length).toBe(4);
    expect([...samples!.timestamps].map((t) => new Date(t).toISOString())).toEqual([
      '2026-03-01T01:58:00.000Z',
      '2026-03-01T01:59:00.000Z',
      '2026-03-03T00:00:00.000Z',
      '2026-03-03T00:01:00.000Z',
    ]);
    expect(Object.keys(samples!.columns)).toEqual(['SO2']);
  });
});

describe('bad input: a clear message, nothing half-imported, the server keeps running', () => {
  const header = 'Timestamp,SO2,CO2\n';
  const cases: [string, string, Buffer | string, RegExp][] = [
    ['wrong extension', 'data.pdf', 'x', /file type \.pdf is not accepted/],
    ['empty file', 'empty.csv', '', /empty\.csv: The file is empty/],
    ['header only', 'header.csv', header, /header\.csv: The file has a header but no data rows/],
    [
      'unparseable timestamps',
      'times.csv',
      `${header}yesterday noon,1,2\n`,
      /times\.csv: Row 2: the timestamp 'yesterday noon' does not match/,
    ],
    [
      'duplicate timestamps',
      'dupes.csv',
      `${header}2026-04-01 00:00:00,1,2\n2026-04-01 00:00:00,1,2\n`,
      /dupes\.csv: Rows 2 and 3 have the same timestamp/,
    ],
    [
      'non-numeric cells in a numeric channel',
      'text.csv',
      `${header}2026-04-01 00:00:00,1,2\n2026-04-01 00:01:00,ERR,2\n2026-04-01 00:02:00,3,2\n`,
      /text\.csv: Row 3, column 'SO2': 'ERR' is not a number/,
    ],
    [
      'mixed row lengths',
      'rows.csv',
      `${header}2026-04-01 00:00:00,1,2\n2026-04-01 00:01:00,1,2,3,4\n`,
      /rows\.csv: Row 3 has more values than the 3 columns/,
    ],
    [
      'a 10 MB line',
      'long.csv',
      `${header}2026-04-01 00:00:00,${'1'.repeat(10 * 1024 * 1024)},2\n`,
      /long\.csv: Row 2 is 10,485,[0-9]+ bytes long; a row may hold at most/,
    ],
    [
      '5,000 columns',
      'wide.csv',
      `Timestamp,${Array.from({ length: 5000 }, (_, i) => `C${i}`).join(',')}\n`,
      /wide\.csv: The header has more than 2,000 columns; a file may have at most 2,000/,
    ],
    [
      'zip with ../ in an entry name',
      'slip.zip',
      Buffer.from(zipSync({ '../evil.csv': strToU8(csvFile({ start: '2026-04-01 00:00:00', rows: 2 })) })),
      /\.\.\/evil\.csv: the path leads outside the archive/,
    ],
    [
      'zip with an absolute entry name',
      'abs.zip',
      Buffer.from(zipSync({ '/etc/evil.csv': strToU8(csvFile({ start: '2026-04-01 00:00:00', rows: 2 })) })),
      /absolute paths are not accepted/,
    ],
    [
      'zip bomb',
      'bomb.zip',
      Buffer.from(zipSync({ 'zeros.csv': new Uint8Array(30 * 1024 * 1024) }, { level: 9 })),
      /zeros\.csv: it is compressed [\d,]+:1, more than the 400:1 accepted; it looks like a zip bomb/,
    ],
    [
      'encrypted entry',
      'secret.zip',
      markEncrypted(zipSync({ 'secret.csv': strToU8(csvFile({ start: '2026-04-01 00:00:00', rows: 2 })) })),
      /secret\.csv: the file is encrypted/,
    ],
    [
      'truncated zip',
      'broken.zip',
      Buffer.from(
        zipSync({ 'a.csv': strToU8(csvFile({ start: '2026-04-01 00:00:00', rows: 50 })) }),
      ).subarray(0, 200),
      /broken\.zip is damaged or incomplete/,
    ],
    [
      'zip inside zip',
      'nested.zip',
      Buffer.from(zipSync({ 'inner.zip': zipSync({ 'a.csv': strToU8('x') }) })),
      /inner\.zip: zip inside zip is not accepted/,
    ],
  ];

  it.each(cases)('%s', async (_name, fileName, content, message) => {
    const before = await ingestionCounts(server);
    const response = await upload(fileName, content);
    expect(response.statusCode).toBe(200);
    expect(response.json().ids).toEqual([]);
    expect(response.json().errorMessages).toEqual([expect.stringMatching(message)]);
    expect(await ingestionCounts(server)).toEqual(before);
    expect((await server.app.inject({ url: '/api/version' })).statusCode).toBe(200);
  });

  it('rejects a large file with a bad cell near its end without keeping its original', async () => {
    const content = `${csvFile({ start: '2026-06-01 00:00:00', rows: 60_000, channels: ['SO2', 'CO2', 'Flow', 'Temp'] })}2026-07-15 00:00:00,1,2,x,4\n`;
    expect(content.length).toBeGreaterThan(OFF_THREAD_MIN_BYTES);
    const before = await ingestionCounts(server);
    const response = await upload('late-error.csv', content);
    expect(response.json().ids).toEqual([]);
    expect(response.json().errorMessages).toEqual([
      expect.stringMatching(/^late-error\.csv: Row 60,?002, column 'Flow': 'x' is not a number/),
    ]);
    expect(await ingestionCounts(server)).toEqual(before);
  });

  it('rejects an upload over the size limit', async () => {
    const before = await ingestionCounts(server);
    const limit = server.services.config.UPLOAD_MAX_BYTES;
    server.services.config.UPLOAD_MAX_BYTES = 64 * 1024;
    try {
      const response = await upload('big.csv', csvFile({ start: '2026-05-01 00:00:00', rows: 3000 }));
      expect(response.json()).toEqual({
        ids: [],
        errorMessages: ['The upload is larger than 66 kB, the most accepted at once.'],
        warnings: [],
        execution: null,
      });
    } finally {
      server.services.config.UPLOAD_MAX_BYTES = limit;
    }
    expect(await ingestionCounts(server)).toEqual(before);
  });

  it('imports two identical uploads sent at once only once', async () => {
    const before = await ingestionCounts(server);
    const content = csvFile({ start: '2026-06-01 00:00:00', rows: 500 });
    const [a, b] = await Promise.all([upload('twin-a.csv', content), upload('twin-b.csv', content)]);
    const answers = [a.json(), b.json()];
    expect(answers.flatMap((r) => r.ids)).toHaveLength(1);
    expect(answers.flatMap((r) => r.errorMessages)).toEqual([
      expect.stringMatching(/^twin-[ab]\.csv: already imported on /),
    ]);
    const after = await ingestionCounts(server);
    expect(after.files).toBe(before.files + 1);
    expect(after.values).toBe(before.values + 3);
  });
});

describe('who may upload and delete', () => {
  it("answers 404 for another organization's data source and file", async () => {
    const files = (await (await server.as('admin')).get(uploadUrl)).json() as { id: string }[];
    const maria = await server.as('south.maria');
    expect((await maria.get(uploadUrl)).statusCode).toBe(404);
    expect(
      (await upload('x.csv', csvFile({ start: '2026-07-01 00:00:00', rows: 2 }), 'south.maria')).statusCode,
    ).toBe(404);
    expect((await maria.delete(`${uploadUrl}/${files[0]!.id}?deleteData=true`)).statusCode).toBe(404);
    expect((await (await server.as('admin')).get(uploadUrl)).json()).toHaveLength(files.length);
  });

  it('lets a User of the ship upload, but not configure its data sources', async () => {
    const response = await upload(
      'anna.csv',
      csvFile({ start: '2026-02-27 00:00:00', rows: 10 }),
      'north.anna',
    );
    expect(response.json().ids).toHaveLength(1);
    const anna = await server.as('north.anna');
    const put = await anna.put(`/api/algorithm/facility/${facilityId}/datasource/${dataSourceId}`, {
      name: 'Renamed',
      dataSourceReaderId: 'delimited-text',
      dataSourceReaderConfiguration: CSV_CONFIGURATION,
      measureFrequencyInSeconds: 60,
      utcTimezoneOffsetInMinutes: 0,
      isPrimary: true,
    });
    expect(put.statusCode).toBe(403);
  });

  it('keeps the samples when a file is deleted without its data, and shrinks the range when deleted with it', async () => {
    const admin = await server.as('admin');
    const files = (await admin.get(uploadUrl)).json() as { id: string; fileName: string }[];
    const earliest = files.find((f) => f.fileName === 'anna.csv')!;
    const latest = files.find((f) => f.fileName.startsWith('twin-'))!;
    const before = await facility();
    expect(before.dataTimeStampMin).toBe('2026-02-26T23:00:00.000Z');

    expect((await admin.delete(`${uploadUrl}/${latest.id}`)).statusCode).toBe(204);
    expect(((await admin.get(uploadUrl)).json() as { id: string }[]).map((f) => f.id)).not.toContain(
      latest.id,
    );
    expect((await facility()).dataTimeStampMax).toBe(before.dataTimeStampMax);

    const counts = await ingestionCounts(server);
    expect((await admin.delete(`${uploadUrl}/${earliest.id}?deleteData=true`)).statusCode).toBe(204);
    const after = await facility();
    expect(after.dataTimeStampMin).toBe('2026-03-01T00:00:00.000Z');
    // The twin file is off the list but its 500 samples still count; anna.csv's 10 are gone.
    const expected =
      Math.floor((Date.parse(after.dataTimeStampMax!) - Date.parse(after.dataTimeStampMin!)) / 60_000) + 1;
    expect(after.dataCoverage).toBeCloseTo(Math.round(((120 + 60 + 500) / expected) * 1000) / 10, 5);
    expect(await ingestionCounts(server)).toEqual({
      files: counts.files - 1,
      originals: counts.originals - 1,
      timestamps: counts.timestamps - 1,
      values: counts.values - 3,
    });
    expect((await admin.delete(`${uploadUrl}/${earliest.id}?deleteData=true`)).statusCode).toBe(404);
  });
});

/** Another ship of the seed with a data source of its own and the given channel mappings (source -> field). */
async function shipWithMappings(index: number, name: string, mappings: Record<string, string>) {
  const ship = Object.values(server.seed.facilityIds).filter((id) => id !== facilityId)[index];
  if (!ship) throw new Error(`no seeded ship ${index}`);
  const source = await createCsvDataSource(server, ship, { name });
  const admin = await server.as('admin');
  for (const [column, field] of Object.entries(mappings)) {
    const mapped = await admin.post(
      `/api/algorithm/facilitydatasource/${source}/facilitydatasourcechannels`,
      {
        source: column,
        name: field,
        dataType: 'Double',
      },
    );
    if (mapped.statusCode !== 201) throw new Error(`mapping not made: ${mapped.body}`);
  }
  return { ship, source, url: `/api/algorithm/facilitydatasource/${source}/file` };
}

describe('data health: never silent', () => {
  it('imports a file that matches none of the mapped channels with a warning listing them, kept with the file', async () => {
    const { url } = await shipWithMappings(0, 'DemoNames', {
      ME_FUEL_FLOW: 'FUEL_FLOW',
      SO2_OUT: 'SO2_PPM',
      CO2_OUT: 'CO2_PCT',
    });
    const file = csvFile({
      start: '2026-05-01 00:00:00',
      rows: 30,
      channels: ['ME1_FO_FLOW_KGH', 'SO2 Outlet [ppm]'],
    });
    const response = await sendFile(server, 'admin', 'POST', url, 'own-names.csv', file);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.ids).toHaveLength(1);
    expect(body.errorMessages).toEqual([]);
    const missing = {
      kind: 'missingChannels',
      message:
        'No column of the file matches a mapped channel, so its data is not used. Missing: CO2_OUT (CO2_PCT), ME_FUEL_FLOW (FUEL_FLOW) and SO2_OUT (SO2_PPM). Check the channel mappings of the data source.',
      names: ['CO2_OUT', 'ME_FUEL_FLOW', 'SO2_OUT'],
      count: 3,
    };
    expect(body.warnings).toEqual([
      {
        id: body.ids[0],
        fileName: 'own-names.csv',
        warnings: [missing, expect.objectContaining({ kind: 'unmappedColumns', count: 2 })],
      },
    ]);
    // The files screen shows the same warnings later.
    const listed = (await (await server.as('admin')).get(url)).json();
    expect(listed[0].warnings[0]).toEqual(missing);
  });

  it('flags a stuck SO2 while the engine runs as flat-lined, a pH of 15 as out of range and a channel that stopped as stale', async () => {
    const { ship, url } = await shipWithMappings(1, 'HealthLogger', {
      Load: 'ENGINE_LOAD',
      SO2: 'SO2_PPM',
      CO2: 'CO2_PCT',
      pH: 'WASHWATER_PH',
    });
    // Six hours: SO2 stuck at 12.3 ppm for 200 minutes, CO2 empty after the first hour, one pH of 15.
    const file = csvFile({
      start: '2026-04-01 00:00:00',
      rows: 360,
      channels: ['Load', 'SO2', 'CO2', 'pH'],
      value: (r, c) =>
        [
          (80 + (r % 3)).toString(),
          r < 200 ? '12.3' : (10 + (r % 7)).toString(),
          r < 60 ? (5 + (r % 4) / 10).toFixed(1) : '',
          r === 100 ? '15' : (7 + (r % 5) / 10).toFixed(1),
        ][c]!,
    });
    const uploaded = await sendFile(server, 'admin', 'POST', url, 'health.csv', file);
    expect(uploaded.json().warnings[0].warnings).toEqual([]);
    const admin = await server.as('admin');
    const response = await admin.get(
      `/api/facilities/${ship}/data-health?from=2026-04-01T00:00:00Z&to=2026-04-01T06:00:00Z`,
    );
    expect(response.statusCode).toBe(200);
    const health = response.json() as DataHealth;
    const byName = Object.fromEntries(health.channels.map((c) => [c.name, c]));
    expect(health.status).toBe('flagged');
    expect(health.latestDataOn).toBe('2026-04-01T05:59:00.000Z');
    expect(byName.ENGINE_LOAD!.flags).toEqual([]);
    expect(byName.SO2_PPM!.flags).toEqual(['flatLined']);
    expect(byName.SO2_PPM!.intervals).toEqual([
      {
        kind: 'flatLined',
        from: '2026-04-01T00:00:00.000Z',
        to: '2026-04-01T03:19:00.000Z',
        samples: 200,
        value: 12.3,
      },
    ]);
    expect(byName.SO2_PPM!.coverage).toBe(1);
    expect(byName.WASHWATER_PH!.flags).toEqual(['outOfRange']);
    expect(byName.WASHWATER_PH!.intervals).toEqual([
      expect.objectContaining({ from: '2026-04-01T01:40:00.000Z', value: 15 }),
    ]);
    expect(byName.CO2_PCT!.flags).toEqual(['stale']);
    expect(byName.CO2_PCT!.lastValueOn).toBe('2026-04-01T00:59:00.000Z');
    expect(byName.CO2_PCT!.coverage).toBeCloseTo(60 / 360);

    // The ship list's badge counts them; a threshold changed by the organization's administrator changes it.
    const badge = async () =>
      ((await admin.get('/api/data-health/summaries')).json() as { facilityId: string }[]).find(
        (s) => s.facilityId === ship,
      );
    expect(await badge()).toMatchObject({ status: 'flagged', stale: 1, flatLined: 1, outOfRange: 1 });
    const organization = (await admin.get('/api/facilities'))
      .json()
      .find((f: { id: string }) => f.id === ship).primaryOrganizationId as string;
    const put = await admin.put(`/api/organizations/${organization}/data-health-thresholds`, {
      thresholds: [{ fieldName: 'WASHWATER_PH', min: 0, max: 16, staleHours: 2, flatLineHours: 2 }],
    });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toContainEqual({
      fieldName: 'WASHWATER_PH',
      min: 0,
      max: 16,
      staleHours: 2,
      flatLineHours: 2,
      isDefault: false,
    });
    expect(await badge()).toMatchObject({ status: 'flagged', stale: 1, flatLined: 1, outOfRange: 0 });
    const reset = await admin.put(`/api/organizations/${organization}/data-health-thresholds`, {
      thresholds: [
        {
          fieldName: 'WASHWATER_PH',
          min: null,
          max: null,
          staleHours: null,
          flatLineHours: null,
          useDefault: true,
        },
      ],
    });
    expect(reset.json()).toContainEqual(
      expect.objectContaining({ fieldName: 'WASHWATER_PH', max: 14, isDefault: true }),
    );
    // A User may read the thresholds but not set them.
    expect(
      (
        await (
          await server.as('north.anna')
        ).put(`/api/organizations/${organization}/data-health-thresholds`, {
          thresholds: [],
        })
      ).statusCode,
    ).toBeGreaterThanOrEqual(403);
  });

  it('does not call a ship healthy at low coverage with a gap of days, though no channel is flagged (issue 30)', async () => {
    const { ship, url } = await shipWithMappings(2, 'GapLogger', { Load: 'ENGINE_LOAD', SO2: 'SO2_PPM' });
    // Six good hours on 1 April and six on 5 April: nothing stale, flat or out of range, but nothing in between.
    const day = (date: string) =>
      csvFile({
        start: `${date} 00:00:00`,
        rows: 360,
        channels: ['Load', 'SO2'],
        value: (r, c) => (c === 0 ? 80 + (r % 3) : 10 + (r % 7)).toString(),
      });
    for (const date of ['2026-04-01', '2026-04-05'])
      expect((await sendFile(server, 'admin', 'POST', url, `${date}.csv`, day(date))).statusCode).toBe(200);
    const admin = await server.as('admin');
    const health = (
      await admin.get(`/api/facilities/${ship}/data-health?from=2026-04-01T00:00:00Z&to=2026-04-05T06:00:00Z`)
    ).json() as DataHealth;
    expect(health.channels.map((c) => c.flags)).toEqual([[], []]);
    expect(health.status).toBe('flagged');
    expect(health.gapMinutes).toBe(60);
    expect(health.gapCount).toBe(1);
    expect(health.gaps).toEqual([
      { from: '2026-04-01T05:59:00.000Z', to: '2026-04-05T00:00:00.000Z', minutes: 5401 },
    ]);
    expect(healthHeadline(health)).toEqual({
      healthy: false,
      text: 'The ship sent no data for 3 days 18 h. All 2 mapped channels cover less than 95 % of the period (lowest 11.8 %).',
    });
    const badge = ((await admin.get('/api/data-health/summaries')).json() as DataHealthSummary[]).find(
      (s) => s.facilityId === ship,
    );
    expect(badge).toMatchObject({ status: 'flagged', stale: 0, gaps: 1, lowCoverage: 2 });
  });
});
