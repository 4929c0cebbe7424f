import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  demoShips,
  foreignColumnFields,
  foreignDataSource,
  foreignLogger,
  writeForeignDayFile,
  writeShipDayFile,
} from '@portal/demo-fleet';
import { seedDefaultMeasurementCalculations } from '../src/features/calculations/seed';
import { seedDemoData } from '../src/features/files/demo';
import { runExecution } from '../src/features/executions/run';
import { enginePortsOf } from '../src/features/engine-ports';
import { startTestServer, type TestServer } from './harness';
import { CSV_CONFIGURATION, csvFile, multipartFile, sendFile } from './upload-helpers';

let server: TestServer;
let ship: string;
let otherShip: string;

const body = (overrides: Record<string, unknown> = {}) => ({
  name: 'Logger',
  dataSourceReaderId: 'delimited-text',
  dataSourceReaderConfiguration: CSV_CONFIGURATION,
  measureFrequencyInSeconds: 60,
  utcTimezoneOffsetInMinutes: 0,
  note: 'main logger',
  isPrimary: false,
  ...overrides,
});

beforeAll(async () => {
  server = await startTestServer();
  ship = server.seed.facilityIds.straits_pioneer!;
  otherShip = server.seed.facilityIds.pacific_kestrel!;
});
afterAll(async () => {
  await server?.close();
});

describe('readers', () => {
  it('lists the readers with their default configuration as JSON text and their file extensions', async () => {
    const readers = (await (await server.as('north.anna')).get('/api/algorithm/datasourcereader')).json();
    expect(readers.map((r: { id: string }) => r.id)).toEqual(['delimited-text', 'excel-workbook']);
    expect(JSON.parse(readers[0].defaultConfiguration)).toMatchObject({
      delimiter: ',',
      timestampColumns: ['Timestamp'],
    });
    expect(readers[1].acceptedFileExtensionsByComma).toBe('.xlsx');
    const one = await (await server.as('admin')).get('/api/algorithm/datasourcereader/excel-workbook');
    expect(one.json().name).toBe('Excel workbook (XLSX)');
    expect((await (await server.as('admin')).get('/api/algorithm/datasourcereader/nope')).statusCode).toBe(
      404,
    );
  });
});

describe('data sources', () => {
  let firstId: string;
  let secondId: string;

  it("answers the spec's validation texts", async () => {
    const admin = await server.as('admin');
    const bad = await admin.post(
      `/api/algorithm/facility/${ship}/datasource`,
      body({
        name: 'has space',
        measureFrequencyInSeconds: 0,
        utcTimezoneOffsetInMinutes: '',
        dataSourceReaderConfiguration: '',
      }),
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toMatchObject({
      name: 'Name has forbidden characters',
      measureFrequencyInSeconds: 'Frequency must be more than 0',
      utcTimezoneOffsetInMinutes: 'Timezone offset is required',
      dataSourceReaderConfiguration: 'Provide a parser configuration',
    });
    const fraction = await admin.post(
      `/api/algorithm/facility/${ship}/datasource`,
      body({ name: '', measureFrequencyInSeconds: 1.5 }),
    );
    expect(fraction.json().fields).toMatchObject({
      name: 'Name is required',
      measureFrequencyInSeconds: 'Must be a whole number',
    });
    const config = await admin.post(
      `/api/algorithm/facility/${ship}/datasource`,
      body({ dataSourceReaderConfiguration: JSON.stringify({ delimiter: ',', decimalSeparator: ',' }) }),
    );
    expect(config.statusCode).toBe(400);
    expect(config.json().fields.dataSourceReaderConfiguration).toMatch(/headerRow/);
  });

  it('makes the first data source primary and keeps exactly one primary per ship', async () => {
    const admin = await server.as('admin');
    const first = await admin.post(`/api/algorithm/facility/${ship}/datasource`, body());
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({
      name: 'Logger',
      isPrimary: true,
      dataSourceReaderName: 'Delimited text (CSV)',
      dataSourceReaderAcceptedFileExtensionsByComma: '.csv,.txt',
      channels: [],
      filesCount: 0,
    });
    firstId = first.json().id;
    const second = await admin.post(
      `/api/algorithm/facility/${ship}/datasource`,
      body({ name: 'Gauges', isPrimary: true }),
    );
    secondId = second.json().id;
    const list = (await admin.get(`/api/algorithm/facility/${ship}/datasource`)).json();
    expect(list.map((d: { name: string; isPrimary: boolean }) => [d.name, d.isPrimary])).toEqual([
      ['Gauges', true],
      ['Logger', false],
    ]);
    const unmark = await admin.put(
      `/api/algorithm/facility/${ship}/datasource/${secondId}`,
      body({ name: 'Gauges', isPrimary: false }),
    );
    expect(unmark.statusCode).toBe(400);
    await admin.put(`/api/algorithm/facility/${ship}/datasource/${firstId}`, body({ isPrimary: true }));
    const again = (await admin.get(`/api/algorithm/facility/${ship}/datasource`)).json();
    expect(again.filter((d: { isPrimary: boolean }) => d.isPrimary).map((d: { id: string }) => d.id)).toEqual(
      [firstId],
    );
    const duplicate = await admin.post(
      `/api/algorithm/facility/${ship}/datasource`,
      body({ name: 'LOGGER' }),
    );
    expect(duplicate.statusCode).toBe(400);
    expect(duplicate.json().fields.name).toMatch(/already exists/);
  });

  it('reads the raw channels of a sample file, replaces them with a new sample and deletes them', async () => {
    const url = `/api/algorithm/facility/${ship}/datasource/${firstId}/SampleFile`;
    const sample = await sendFile(
      server,
      'admin',
      'PUT',
      url,
      'sample.csv',
      csvFile({
        start: '2026-01-01 00:00:00',
        rows: 10,
        channels: ['SO2_ppm', 'Running'],
        value: (r, c) => (c === 1 ? String(r % 2 === 1) : (r * 1.25).toFixed(2)),
      }),
    );
    expect(sample.statusCode).toBe(200);
    const admin = await server.as('admin');
    const channels = (await admin.get(`/api/algorithm/facilitydatasource/${firstId}/samplechannels`)).json();
    expect(channels).toEqual([
      expect.objectContaining({
        channel: 'SO2_ppm',
        dataType: 'Double',
        decimals: 2,
        minSampleValue: 0,
        maxSampleValue: 11.25,
      }),
      expect.objectContaining({ channel: 'Running', dataType: 'Boolean', minscale: 0, maxscale: 1 }),
    ]);
    await sendFile(
      server,
      'admin',
      'PUT',
      url,
      'sample2.csv',
      csvFile({ start: '2026-01-01 00:00:00', rows: 3, channels: ['Flow'] }),
    );
    expect(
      (await admin.get(`/api/algorithm/facilitydatasource/${firstId}/samplechannels`))
        .json()
        .map((c: { channel: string }) => c.channel),
    ).toEqual(['Flow']);
    expect(
      (await admin.get(`/api/algorithm/facility/${ship}/datasource`))
        .json()
        .find((d: { id: string }) => d.id === firstId).sampleFileName,
    ).toBe('sample2.csv');

    const broken = await sendFile(server, 'admin', 'PUT', url, 'broken.csv', 'Timestamp,A\nnot a time,1\n');
    expect(broken.statusCode).toBe(400);
    expect(broken.json().message).toMatch(/^broken\.csv: Row 2: the timestamp/);
    const wrongType = await sendFile(server, 'admin', 'PUT', url, 'sample.xlsx', 'x');
    expect(wrongType.statusCode).toBe(400);

    expect(
      (
        await admin.delete(
          `/api/algorithm/facility/${ship}/datasource/${firstId}/samplefileandsamplechannels`,
        )
      ).statusCode,
    ).toBe(204);
    expect((await admin.get(`/api/algorithm/facilitydatasource/${firstId}/samplechannels`)).json()).toEqual(
      [],
    );
  });

  it('maps channels and adds custom channels, answering id and fullName', async () => {
    const admin = await server.as('admin');
    const url = `/api/algorithm/facilitydatasource/${firstId}/facilitydatasourcechannels`;
    const mapped = await admin.post(url, {
      source: 'SO2_ppm',
      name: 'SO2_PPM',
      dataType: 'Double',
      unit: 'ppm',
      description: 'SO2 at the outlet',
      qualityScore: 4,
    });
    expect(mapped.statusCode).toBe(201);
    expect(mapped.json()).toMatchObject({
      id: expect.any(String),
      source: 'SO2_ppm',
      name: 'SO2_PPM',
      fullName: 'Logger.SO2_PPM',
      qualityScore: 4,
      isCustom: false,
    });
    expect(
      (await admin.post(url, { source: 'SO2_ppm', name: 'SO2_AGAIN', dataType: 'Double' })).statusCode,
    ).toBe(409);
    const invalid = await admin.post(url, { source: 'X', name: 'bad name', dataType: '' });
    expect(invalid.json().fields).toMatchObject({
      name: 'Name has forbidden characters',
      dataType: 'You have to select a data type',
    });
    const custom = await admin.post(url, {
      isCustom: true,
      source: '',
      name: 'Constant',
      dataType: 'Double',
    });
    expect(custom.json().fields).toMatchObject({ source: 'Source is required' });
    const customOk = await admin.post(url, {
      isCustom: true,
      source: 'SO2_ppm*2',
      name: 'Doubled',
      dataType: 'Double',
    });
    expect(customOk.json()).toMatchObject({ isCustom: true, fullName: 'Logger.Doubled' });

    const updated = await admin.put(`${url}/${mapped.json().id}`, {
      source: 'SO2_ppm',
      name: 'SO2',
      dataType: 'Double',
      unit: 'ppm',
      description: '',
      qualityScore: 5,
    });
    expect(updated.json()).toMatchObject({ name: 'SO2', fullName: 'Logger.SO2', qualityScore: 5 });
    expect((await admin.get(url)).json().map((c: { name: string }) => c.name)).toEqual(['SO2', 'Doubled']);
    expect((await admin.delete(`${url}/${customOk.json().id}`)).statusCode).toBe(204);
    expect((await admin.get(url)).json()).toHaveLength(1);
  });

  it("answers 404 for another organization's data source and channel, 403 for a User who may see it", async () => {
    const maria = await server.as('south.maria');
    const channels = (
      await (
        await server.as('admin')
      ).get(`/api/algorithm/facilitydatasource/${firstId}/facilitydatasourcechannels`)
    ).json();
    expect((await maria.get(`/api/algorithm/facility/${ship}/datasource`)).statusCode).toBe(404);
    expect((await maria.get(`/api/algorithm/facilitydatasource/${firstId}/samplechannels`)).statusCode).toBe(
      404,
    );
    expect(
      (
        await maria.put(
          `/api/algorithm/facilitydatasource/${firstId}/facilitydatasourcechannels/${channels[0].id}`,
          { source: 'a', name: 'b', dataType: 'Double' },
        )
      ).statusCode,
    ).toBe(404);
    expect((await maria.delete(`/api/algorithm/facility/${ship}/datasource/${firstId}`)).statusCode).toBe(
      404,
    );

    const anna = await server.as('north.anna');
    expect((await anna.get(`/api/algorithm/facility/${ship}/datasource`)).statusCode).toBe(200);
    expect(
      (await anna.post(`/api/algorithm/facility/${ship}/datasource`, body({ name: 'Mine' }))).statusCode,
    ).toBe(403);
    expect(
      (
        await anna.delete(
          `/api/algorithm/facilitydatasource/${firstId}/facilitydatasourcechannels/${channels[0].id}`,
        )
      ).statusCode,
    ).toBe(403);
    expect((await anna.delete(`/api/algorithm/facility/${ship}/datasource/${secondId}`)).statusCode).toBe(
      403,
    );
  });

  it('copies data sources, channels and calculations to another ship, remapping channel inputs', async () => {
    const { db } = server.services.database;
    const field = await db
      .insertInto('measurement_fields')
      .values({ name: 'TEST_FIELD', data_type: 'Double', unit: null, documentation: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    const channel = (
      await (
        await server.as('admin')
      ).get(`/api/algorithm/facilitydatasource/${firstId}/facilitydatasourcechannels`)
    ).json()[0];
    await db
      .insertInto('measurement_field_calculations')
      .values({
        facility_id: ship,
        measurement_field_id: field.id,
        comment: 'copied',
        documentation: null,
        input_ids: JSON.stringify([channel.id, field.id]),
        approved_on: null,
        approved_by: null,
        valid_from: null,
        valid_to: null,
        recalculation_requested_on: null,
        recalculation_queued_on: null,
      })
      .execute();

    const admin = await server.as('admin');
    const response = await admin.put(`/api/algorithm/facilities/${otherShip}/configurations`, {
      sourceFacilityId: ship,
    });
    expect(response.json()).toEqual({
      dataSources: 2,
      channels: 1,
      calculations: 1,
      validFrom: '2000-01-01T00:00:00.000Z',
    });
    const copied = (await admin.get(`/api/algorithm/facility/${otherShip}/datasource`)).json();
    expect(copied.map((d: { name: string; isPrimary: boolean }) => [d.name, d.isPrimary])).toEqual([
      ['Logger', true],
      ['Gauges', false],
    ]);
    const newChannelId = copied[0].channels[0].id;
    expect(newChannelId).not.toBe(channel.id);
    const calc = await db
      .selectFrom('measurement_field_calculations')
      .select(['input_ids', 'comment'])
      .where('facility_id', '=', otherShip)
      .executeTakeFirstOrThrow();
    expect(calc).toEqual({ input_ids: [newChannelId, field.id], comment: 'copied' });
    expect(
      (await admin.put(`/api/algorithm/facilities/${otherShip}/configurations`, { sourceFacilityId: ship }))
        .statusCode,
    ).toBe(409);
    const maria = await server.as('south.maria');
    expect(
      (await maria.put(`/api/algorithm/facilities/${otherShip}/configurations`, { sourceFacilityId: ship }))
        .statusCode,
    ).toBe(404);
  });

  it('deletes a data source with its files and samples; another one becomes primary and the ship range follows', async () => {
    const admin = await server.as('admin');
    const upload = await sendFile(
      server,
      'admin',
      'POST',
      `/api/algorithm/facilitydatasource/${firstId}/file`,
      'd.csv',
      csvFile({ start: '2026-01-05 00:00:00', rows: 5, channels: ['SO2_ppm'] }),
    );
    expect(upload.json().ids).toHaveLength(1);
    const ships = async () =>
      ((await admin.get('/api/facilities')).json() as { id: string; dataTimeStampMax: string | null }[]).find(
        (s) => s.id === ship,
      )!;
    expect((await ships()).dataTimeStampMax).toBe('2026-01-05T00:04:00.000Z');
    expect((await admin.delete(`/api/algorithm/facility/${ship}/datasource/${firstId}`)).statusCode).toBe(
      204,
    );
    const list = (await admin.get(`/api/algorithm/facility/${ship}/datasource`)).json();
    expect(list.map((d: { name: string; isPrimary: boolean }) => [d.name, d.isPrimary])).toEqual([
      ['Gauges', true],
    ]);
    expect((await ships()).dataTimeStampMax).toBeNull();
    const { db } = server.services.database;
    expect(
      await db.selectFrom('data_files').select('id').where('data_source_id', '=', firstId).execute(),
    ).toEqual([]);
  });
});

describe('demo seed', () => {
  it('configures the demo ships and imports their daily files through the upload service, once', async () => {
    const { db } = server.services.database;
    const until = new Date(Date.UTC(2026, 2, 10));
    const keys = ['atlantic_meridian', 'coral_navigator'];
    const facilityIds = Object.fromEntries(keys.map((k) => [k, server.seed.facilityIds[k]!]));
    const first = await seedDemoData(server.services.database, { facilityIds, days: 2, until });
    expect(first).toMatchObject({ dataSources: 2, channels: 62, files: 4, errors: [] });
    const again = await seedDemoData(server.services.database, { facilityIds, days: 2, until });
    expect(again).toMatchObject({ dataSources: 0, files: 0 });

    const atlantic = demoShips().find((s) => s.key === 'atlantic_meridian')!;
    const day = await writeShipDayFile(atlantic, new Date(Date.UTC(2026, 2, 9)));
    const listed = await db
      .selectFrom('data_files')
      .select(['file_name', 'time_stamp_max'])
      .where('facility_id', '=', facilityIds.atlantic_meridian!)
      .orderBy('time_stamp_min')
      .execute();
    expect(listed.map((f) => f.file_name)).toContain(day.fileName);
    expect(new Date(listed.at(-1)!.time_stamp_max).getTime()).toBeLessThan(until.getTime());

    // Its first file is the data source's sample file: every mapped channel is in it.
    const admin = await server.as('admin');
    const source = await db
      .selectFrom('facility_data_sources')
      .select(['id', 'sample_file_name'])
      .where('facility_id', '=', facilityIds.atlantic_meridian!)
      .executeTakeFirstOrThrow();
    const firstDay = await writeShipDayFile(atlantic, new Date(Date.UTC(2026, 2, 8)));
    expect(source.sample_file_name).toBe(firstDay.fileName);
    const sample = (await admin.get(`/api/algorithm/facilitydatasource/${source.id}/samplechannels`)).json();
    const mapped = (
      await admin.get(`/api/algorithm/facilitydatasource/${source.id}/facilitydatasourcechannels`)
    ).json();
    const inSample = new Set(sample.map((c: { channel: string }) => c.channel));
    expect(mapped.length).toBeGreaterThan(0);
    expect(mapped.filter((m: { source: string }) => !inSample.has(m.source))).toEqual([]);
  });

  it('gives a demo data source seeded before without a sample file its sample file', async () => {
    const db = server.services.database.db;
    const until = new Date(Date.UTC(2026, 2, 10));
    const facilityIds = { atlantic_meridian: server.seed.facilityIds.atlantic_meridian! };
    await db
      .updateTable('facility_data_sources')
      .set({ sample_file: null, sample_file_name: null, sample_channels: null })
      .where('facility_id', '=', facilityIds.atlantic_meridian)
      .execute();
    await seedDemoData(server.services.database, { facilityIds, days: 2, until });
    const source = await db
      .selectFrom('facility_data_sources')
      .select('sample_file_name')
      .where('facility_id', '=', facilityIds.atlantic_meridian)
      .executeTakeFirstOrThrow();
    expect(source.sample_file_name).toMatch(/./);
  });

  it("an imported configuration's calculations cover the new ship's data older than the source ship's first day", async () => {
    const { db } = server.services.database;
    const admin = await server.as('admin');
    const atlantic = demoShips().find((s) => s.key === 'atlantic_meridian')!;
    const source = server.seed.facilityIds.atlantic_meridian!;
    // As the demo does: the demo ship's calculations are valid from its first data day (2026-03-08 here).
    await seedDefaultMeasurementCalculations(db, source, new Date(Date.UTC(2026, 2, 8)));

    const target = (
      await admin.post('/api/facilities', {
        organizationId: server.seed.organizationIds.north!,
        name: 'MV New Logger',
      })
    ).json().id as string;
    const imported = await admin.put(`/api/algorithm/facilities/${target}/configurations`, {
      sourceFacilityId: source,
    });
    expect(imported.statusCode).toBe(200);
    expect(imported.json()).toMatchObject({
      dataSources: 1,
      channels: 31,
      validFrom: '2000-01-01T00:00:00.000Z',
    });
    expect(imported.json().calculations).toBeGreaterThan(0);

    // The sample file came along: the raw channels show before any upload.
    const [dataSource] = (await admin.get(`/api/algorithm/facility/${target}/datasource`)).json();
    expect(dataSource.sampleFileName).toMatch(/./);
    const sample = (
      await admin.get(`/api/algorithm/facilitydatasource/${dataSource.id}/samplechannels`)
    ).json();
    expect(sample.length).toBeGreaterThanOrEqual(25);

    // A week older than the source ship's first data day.
    const day = new Date(Date.UTC(2026, 1, 20));
    const file = await writeShipDayFile(atlantic, day);
    const upload = await sendFile(
      server,
      'admin',
      'POST',
      `/api/algorithm/facilitydatasource/${dataSource.id}/file`,
      file.fileName,
      Buffer.from(file.content),
    );
    expect(upload.json().errorMessages).toEqual([]);
    const execute = await admin.post('/api/algorithm/calculations/measurement-field/execute', {
      facilityId: target,
      from: day.toISOString(),
      to: new Date(day.getTime() + 86_400_000).toISOString(),
      facilityDataSourceFileIds: upload.json().ids,
    });
    expect(execute.statusCode).toBe(202);
    const outcome = await runExecution(
      server.services,
      enginePortsOf(server.services),
      { executionId: execute.json().id },
      { jobId: 'test', retryCount: 0, retryLimit: 0 },
    );
    expect(outcome).toEqual({ status: 'done' });
    const values = await db
      .selectFrom('measurement_values')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('facility_id', '=', target)
      .executeTakeFirstOrThrow();
    expect(Number(values.n)).toBeGreaterThan(0);

    // A date picked in the dialog is the start instead.
    const picked = (
      await admin.post('/api/facilities', {
        organizationId: server.seed.organizationIds.north!,
        name: 'MV Picked',
      })
    ).json().id as string;
    const withDate = await admin.put(`/api/algorithm/facilities/${picked}/configurations`, {
      sourceFacilityId: source,
      validFrom: '2025-06-01T00:00:00Z',
    });
    expect(withDate.json().validFrom).toBe('2025-06-01T00:00:00.000Z');
    const starts = await db
      .selectFrom('measurement_field_calculations')
      .select('valid_from')
      .where('facility_id', '=', picked)
      .where('approved_on', 'is not', null)
      .execute();
    expect(starts.map((c) => new Date(c.valid_from!).toISOString())).toEqual(
      starts.map(() => '2025-06-01T00:00:00.000Z'),
    );
  });
});

describe('reader preview', () => {
  it("reads the first rows of a data source's sample file, an uploaded file or a file sent along, with the configuration sent", async () => {
    const admin = await server.as('admin');
    const source = server.seed.facilityIds.atlantic_meridian!;
    const [dataSource] = (await admin.get(`/api/algorithm/facility/${source}/datasource`)).json();
    const body = {
      dataSourceReaderId: dataSource.dataSourceReaderId,
      dataSourceReaderConfiguration: dataSource.dataSourceReaderConfiguration,
      utcTimezoneOffsetInMinutes: dataSource.utcTimezoneOffsetInMinutes,
    };
    const url = `/api/algorithm/facility/${source}/datasource/preview`;
    const sample = await admin.post(url, { ...body, dataSourceId: dataSource.id });
    expect(sample.statusCode).toBe(200);
    expect(sample.json()).toMatchObject({ fileName: dataSource.sampleFileName, errors: [] });
    expect(sample.json().rows).toHaveLength(20);
    expect(sample.json().rows[0].timestamp).toMatch(/^2026-03-08T/);

    const [file] = (await admin.get(`/api/algorithm/facilitydatasource/${dataSource.id}/file`)).json();
    const uploaded = await admin.post(url, { ...body, fileId: file.id });
    expect(uploaded.json().fileName).toBe(file.fileName);

    const wrongFormat = await admin.post(url, {
      ...body,
      dataSourceId: dataSource.id,
      dataSourceReaderConfiguration: JSON.stringify({
        ...JSON.parse(body.dataSourceReaderConfiguration),
        timestampFormat: 'DD.MM.YYYY HH:mm',
      }),
    });
    expect(wrongFormat.json().errors[0]).toMatch(
      /^Row \d+: the timestamp '.+' does not match DD\.MM\.YYYY HH:mm\.$/,
    );

    // A new data source has no sample yet: the file comes with the request.
    const token = await server.tokenFor('admin');
    const { payload, headers } = multipartFile('new.csv', 'Zeit;SO2\n1772359200;1,5\n');
    const request = JSON.stringify({
      dataSourceReaderId: 'delimited-text',
      dataSourceReaderConfiguration: JSON.stringify({
        delimiter: ';',
        decimalSeparator: ',',
        headerRow: 1,
        firstDataRow: 2,
        timestampColumns: ['Zeit'],
        timestampFormat: 'UNIX_S',
      }),
    });
    const boundary = headers['content-type']!.split('boundary=')[1]!;
    const field = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="request"\r\n\r\n${request}\r\n`,
    );
    const sent = await server.app.inject({
      method: 'POST',
      url: `${url}/file`,
      payload: Buffer.concat([field, payload]),
      headers: { ...headers, authorization: `Bearer ${token}` },
    });
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toMatchObject({
      fileName: 'new.csv',
      header: ['Zeit', 'SO2'],
      rows: [{ row: 2, timestampText: '1772359200', timestamp: '2026-03-01T10:00:00.000Z', values: [1.5] }],
      errors: [],
    });

    // Who may: as for the data source dialog; another organization's ship and file are not found.
    expect(
      (await (await server.as('north.anna')).post(url, { ...body, dataSourceId: dataSource.id })).statusCode,
    ).toBe(403);
    const other = server.seed.facilityIds.pacific_kestrel!;
    expect(
      (await admin.post(`/api/algorithm/facility/${other}/datasource/preview`, { ...body, fileId: file.id }))
        .statusCode,
    ).toBe(404);
    expect((await admin.post(url, { ...body, fileId: 'nope' })).statusCode).toBe(404);
  });

  it('explains every reader option in the OpenAPI document', async () => {
    const doc = (await server.app.inject({ url: '/api/docs/json' })).json();
    const delimited = doc.components.schemas.DelimitedReaderConfiguration;
    for (const option of [
      'delimiter',
      'decimalSeparator',
      'headerRow',
      'unitRow',
      'descriptionRow',
      'firstDataRow',
      'timestampColumns',
      'timestampFormat',
      'encoding',
    ])
      expect(delimited.properties[option].description, option).toMatch(/./);
    expect(delimited.properties.timestampFormat.description).toContain('UNIX_MS');
    expect(doc.components.schemas.XlsxReaderConfiguration.properties.sheet.description).toMatch(/./);
    expect(doc.paths['/api/algorithm/facility/{id}/datasource/preview'].post).toBeDefined();
  });
});

describe('suggested mappings and the list of mappings', () => {
  const READ_CHANNELS = [
    ...[
      'FUEL_FLOW',
      'FUEL_SULFUR',
      'ENGINE_LOAD',
      'SO2_PPM',
      'CO2_PCT',
      'SCRUBBER_RUNNING',
      'SCRUBBER_POWER',
    ],
    ...['LATITUDE', 'LONGITUDE', 'WASHWATER_PH', 'WASHWATER_PAH', 'WASHWATER_TURBIDITY'],
    // The washwater calculations' channels: the AMS logger writes them all, the inlet ones too.
    ...[
      'SCRUBBER_MODE',
      'WASHWATER_FLOW',
      'WASHWATER_PH_INLET',
      'WASHWATER_PAH_INLET',
      'WASHWATER_TURBIDITY_INLET',
    ],
  ].sort();
  /** Gulf Horizon (South) takes the configuration of Atlantic Meridian (North's demo ship, 31 mappings). */
  let dataSourceId: string;
  let target: string;
  const ams = foreignLogger('ams');
  const day = new Date(Date.UTC(2026, 2, 9));

  beforeAll(async () => {
    const until = new Date(Date.UTC(2026, 2, 10));
    const from = server.seed.facilityIds.atlantic_meridian!;
    await seedDemoData(server.services.database, {
      facilityIds: { atlantic_meridian: from },
      days: 1,
      until,
    });
    await seedDefaultMeasurementCalculations(
      server.services.database.db,
      from,
      new Date(Date.UTC(2026, 0, 1)),
    );
    target = server.seed.facilityIds.gulf_horizon!;
    const admin = await server.as('admin');
    expect(
      (await admin.put(`/api/algorithm/facilities/${target}/configurations`, { sourceFacilityId: from }))
        .statusCode,
    ).toBe(200);
    const [source] = (await admin.get(`/api/algorithm/facility/${target}/datasource`)).json();
    dataSourceId = source.id;
    // The new ship's logger is another: its reader settings, then one of its files as the sample.
    const updated = await admin.put(`/api/algorithm/facility/${target}/datasource/${dataSourceId}`, {
      name: source.name,
      note: '',
      isPrimary: true,
      ...foreignDataSource(ams),
    });
    expect(updated.statusCode).toBe(200);
    const file = writeForeignDayFile(demoShips()[1]!, day, ams);
    const sample = await sendFile(
      server,
      'admin',
      'PUT',
      `/api/algorithm/facility/${target}/datasource/${dataSourceId}/SampleFile`,
      file.fileName,
      file.content,
    );
    expect(sample.statusCode).toBe(200);
  });

  it("proposes the new logger's column for each field the calculations read, and lists the rest", async () => {
    const admin = await server.as('admin');
    const response = await admin.get(`/api/algorithm/facilitydatasource/${dataSourceId}/suggested-mappings`);
    expect(response.statusCode).toBe(200);
    const result = response.json();
    const right = foreignColumnFields(ams);
    expect(result.fileName).toBe('AMS_TREND_20260309.csv');
    // The 12 DOMAIN channels: those the default calculations read.
    expect(result.proposals.map((p: { field: string }) => p.field).sort()).toEqual(READ_CHANNELS);
    for (const p of result.proposals) {
      expect(right[p.column], `${p.field} <- ${p.column}`).toBe(p.field);
      expect(p.confidence).toBeGreaterThanOrEqual(result.acceptConfidence);
      expect(p.mappingId).toEqual(expect.any(String));
      expect(p.matchesExisting).toBe(false);
      expect(p.reasons.length).toBeGreaterThan(0);
    }
    expect(result.proposals.find((p: { field: string }) => p.field === 'FUEL_FLOW')).toMatchObject({
      column: 'ME1_FO_FLOW_KGH',
      unit: 'KGH',
    });
    // Every field the calculations read has its column in the AMS logger's file.
    expect(result.unmatchedFields).toEqual([]);
    expect(result.mappingsWithoutColumn).toHaveLength(31 - READ_CHANNELS.length);
    expect(result.unmappedColumns.map((c: { channel: string }) => c.channel)).toContain('ME1_SPEED_RPM');
  });

  it('applies a list of mappings in one call, keeping the ids the calculations read, with one audit entry', async () => {
    const admin = await server.as('admin');
    const { db } = server.services.database;
    const result = (
      await admin.get(`/api/algorithm/facilitydatasource/${dataSourceId}/suggested-mappings`)
    ).json();
    const before = (
      await admin.get(`/api/algorithm/facilitydatasource/${dataSourceId}/facilitydatasourcechannels`)
    ).json() as { id: string; name: string; source: string; dataType: string; unit: string | null }[];
    const column = new Map(
      result.proposals.map((p: { mappingId: string; column: string }) => [p.mappingId, p.column]),
    );
    const list = before
      .filter((c) => column.has(c.id))
      .map((c) => ({ id: c.id, source: column.get(c.id), name: c.name, dataType: c.dataType, unit: c.unit }));
    const entries = async () =>
      (await db.selectFrom('audit_log').select('id').where('action', '=', 'channel.replace').execute())
        .length;
    const entriesBefore = await entries();
    const applied = await admin.put(
      `/api/algorithm/facilitydatasource/${dataSourceId}/facilitydatasourcechannels`,
      list,
    );
    expect(applied.statusCode).toBe(200);
    const after = applied.json() as { id: string; name: string; source: string }[];
    expect(after).toHaveLength(READ_CHANNELS.length);
    expect(new Set(after.map((c) => c.id))).toEqual(new Set(list.map((c) => c.id)));
    expect(after.find((c) => c.name === 'SO2_PPM')?.source).toBe('SO2_OUT_PPM');
    expect(await entries()).toBe(entriesBefore + 1);
    // The calculations still read the mappings they read (by id).
    const inputs = (
      await db
        .selectFrom('measurement_field_calculations')
        .select('input_ids')
        .where('facility_id', '=', target)
        .where('approved_on', 'is not', null)
        .execute()
    ).flatMap((c) => c.input_ids ?? []);
    for (const c of after) expect(inputs).toContain(c.id);
    // Now every proposal matches its mapping.
    const again = (
      await admin.get(`/api/algorithm/facilitydatasource/${dataSourceId}/suggested-mappings`)
    ).json();
    expect(again.proposals.every((p: { matchesExisting: boolean }) => p.matchesExisting)).toBe(true);
    expect(again.mappingsWithoutColumn).toEqual([]);
  });

  it('refuses a list with problems as a whole, naming each, and changes nothing', async () => {
    const admin = await server.as('admin');
    const url = `/api/algorithm/facilitydatasource/${dataSourceId}/facilitydatasourcechannels`;
    const before = (await admin.get(url)).json();
    const bad = await admin.put(url, [
      { id: before[0].id, source: 'SO2_OUT_PPM', name: 'SO2_PPM', dataType: 'Double' },
      { source: 'CO2_OUT_PCT', name: 'so2_ppm', dataType: 'Double' },
      { source: 'SO2_OUT_PPM', name: 'OTHER', dataType: 'Decimal' },
      { id: '00000000-0000-4000-8000-000000000000', source: 'X', name: 'has space', dataType: 'Double' },
    ]);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^3 mappings of the list are not valid: 1\.name: /);
    expect(bad.json().fields).toEqual({
      '1.name': 'Another mapping of this list is also named so2_ppm',
      '2.dataType': 'You have to select a data type',
      '2.source': 'The channel SO2_OUT_PPM is also mapped as SO2_PPM',
      '3.name': 'Name has forbidden characters',
      '3.id': 'Not a channel of this data source',
    });
    expect((await admin.get(url)).json()).toEqual(before);
  });

  it('brings back with their ids the mappings a list removed (Undo), and no other id', async () => {
    const admin = await server.as('admin');
    const { db } = server.services.database;
    type Channel = {
      id: string;
      source: string;
      name: string;
      dataType: string;
      unit: string | null;
      description: string | null;
      qualityScore: number;
      isCustom: boolean;
    };
    const item = ({ id, source, name, dataType, unit, description, qualityScore, isCustom }: Channel) => ({
      ...{ id, source, name, dataType, unit, description, qualityScore, isCustom },
    });
    const lastEntry = async (subject: string) =>
      (await db
        .selectFrom('audit_log')
        .select(['detail'])
        .where('action', '=', 'channel.replace')
        .where('subject', '=', subject)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow()) as { detail: Record<string, unknown> };
    const url = `/api/algorithm/facilitydatasource/${dataSourceId}/facilitydatasourcechannels`;
    const before = (await admin.get(url)).json() as Channel[];
    expect(before.length).toBeGreaterThan(3);
    const [first, second, ...rest] = before;

    // A list without two of the mappings removes them; its audit entry names them.
    const removal = await admin.put(url, [...rest.map(item)]);
    expect(removal.statusCode).toBe(200);
    expect(removal.json()).toHaveLength(before.length - 2);
    const removalEntry = (await lastEntry(dataSourceId)).detail;
    expect(removalEntry).toMatchObject({ removed: 2, restored: 0 });
    expect(removalEntry.removedMappings).toHaveLength(2);
    expect(removalEntry.removedMappings).toEqual(
      expect.arrayContaining([first, second].map((c) => ({ id: c!.id, name: c!.name, source: c!.source }))),
    );

    // The Undo: the list as it was, ids included, brings them back as they were, as one more audited change.
    const undo = await admin.put(url, before.map(item));
    expect(undo.statusCode).toBe(200);
    expect(undo.json()).toEqual(before);
    expect((await lastEntry(dataSourceId)).detail).toMatchObject({
      added: 0,
      changed: 0,
      removed: 0,
      restored: 2,
      removedMappings: [],
    });
    // Once back, the id is a mapping again: sent twice it is refused as any id twice.
    expect((await admin.put(url, [...before.map(item), item(first!)])).statusCode).toBe(400);

    // A mapping removed from another data source (Atlantic Meridian's) is not this one's to bring back.
    const [other] = (
      await admin.get(`/api/algorithm/facility/${server.seed.facilityIds.atlantic_meridian}/datasource`)
    ).json() as { id: string; channels: Channel[] }[];
    const otherUrl = `/api/algorithm/facilitydatasource/${other!.id}/facilitydatasourcechannels`;
    const [taken, ...otherRest] = other!.channels;
    expect((await admin.put(otherUrl, otherRest.map(item))).statusCode).toBe(200);
    const refused = await admin.put(url, [
      ...before.map(item),
      { ...item(taken!), name: 'TAKEN_FROM_OTHER' },
    ]);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().fields).toEqual({ [`${before.length}.id`]: 'Not a channel of this data source' });
    expect((await admin.get(url)).json()).toEqual(before);
    // ...but its own data source may.
    expect((await admin.put(otherUrl, other!.channels.map(item))).statusCode).toBe(200);
    expect((await admin.get(otherUrl)).json().map((c: Channel) => c.id)).toEqual(
      other!.channels.map((c) => c.id),
    );
  });

  it("answers another organization's data source as missing, and 403 to a User who sees it", async () => {
    const base = `/api/algorithm/facilitydatasource/${dataSourceId}`;
    const north = await server.as('north.anna');
    expect((await north.get(`${base}/suggested-mappings`)).statusCode).toBe(404);
    expect((await north.put(`${base}/facilitydatasourcechannels`, [])).statusCode).toBe(404);
    const maria = await server.as('south.maria');
    expect((await maria.get(`${base}/suggested-mappings`)).statusCode).toBe(200);
    expect((await maria.put(`${base}/facilitydatasourcechannels`, [])).statusCode).toBe(403);
    const admin = await server.as('admin');
    expect((await admin.get(`${base}/suggested-mappings?fileId=nope`)).statusCode).toBe(404);
  });

  it("reads an uploaded file's columns with ?fileId=, and uses the organization's aliases", async () => {
    const admin = await server.as('admin');
    const base = `/api/algorithm/facilitydatasource/${dataSourceId}`;
    const file = writeForeignDayFile(demoShips()[1]!, new Date(Date.UTC(2026, 2, 8)), ams);
    const upload = await sendFile(server, 'admin', 'POST', `${base}/file`, file.fileName, file.content);
    expect(upload.statusCode).toBeLessThan(300);
    const fileId = upload.json().ids[0];
    const fromFile = (await admin.get(`${base}/suggested-mappings?fileId=${fileId}`)).json();
    expect(fromFile.fileName).toBe(file.fileName);
    expect(fromFile.proposals).toHaveLength(READ_CHANNELS.length);

    // South's own name for the SO2 column.
    const organizationId = fromFile.organizationId;
    expect(organizationId).toBe(server.seed.organizationIds.south);
    const aliases = `/api/organizations/${organizationId}/channel-aliases`;
    const southAdmin = await server.as('south.admin');
    const created = await southAdmin.post(aliases, { field: 'so2_ppm', alias: 'SO2_OUT_PPM' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ field: 'SO2_PPM', alias: 'SO2_OUT_PPM' });
    expect((await southAdmin.post(aliases, { field: 'SO2_PPM', alias: 'so2_out_ppm' })).statusCode).toBe(409);
    expect((await southAdmin.post(aliases, { field: 'SO2 PPM', alias: 'x' })).statusCode).toBe(400);
    const withAlias = (await admin.get(`${base}/suggested-mappings`)).json();
    expect(withAlias.proposals.find((p: { field: string }) => p.field === 'SO2_PPM').reasons[0]).toBe(
      'Your organization\'s alias "SO2_OUT_PPM"',
    );
    expect((await southAdmin.get(aliases)).json()).toHaveLength(1);
    expect((await (await server.as('north.admin')).get(aliases)).statusCode).toBe(404);
    expect((await (await server.as('south.maria')).get(aliases)).statusCode).toBe(403);
    const id = created.json().id;
    expect((await (await server.as('north.admin')).delete(`${aliases}/${id}`)).statusCode).toBe(404);
    expect((await southAdmin.delete(`${aliases}/${id}`)).statusCode).toBe(204);
    expect((await southAdmin.delete(`${aliases}/${id}`)).statusCode).toBe(404);
    expect((await southAdmin.get(aliases)).json()).toEqual([]);
  });
});
