import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { TestServer } from './harness';
import { originalsCompressed } from '../src/storage';
import { seedDefaultMeasurementCalculations } from '../src/features/calculations/seed';

/** A multipart/form-data body with one file field, as a browser sends it. */
export function multipartFile(
  fileName: string,
  content: Buffer | string,
  field = 'file',
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----portal${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    payload: Buffer.concat([head, Buffer.isBuffer(content) ? content : Buffer.from(content), tail]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** Sends a file as multipart with the user's token. */
export async function sendFile(
  server: TestServer,
  username: string,
  method: 'POST' | 'PUT',
  url: string,
  fileName: string,
  content: Buffer | string,
) {
  const token = await server.tokenFor(username);
  const { payload, headers } = multipartFile(fileName, content);
  const response = await server.app.inject({
    method,
    url,
    payload,
    headers: { ...headers, authorization: `Bearer ${token}` },
  });
  return { statusCode: response.statusCode, json: () => response.json(), body: response.body };
}

export interface IngestionCounts {
  files: number;
  timestamps: number;
  values: number;
  originals: number;
}

/** Rows of every ingestion table and the originals stored: what a rejected upload must leave unchanged. */
export async function ingestionCounts(server: TestServer): Promise<IngestionCounts> {
  const { db, originals } = server.services.database;
  // A deletion during an original's compression removes it when the compression ends: count what stays.
  await originalsCompressed();
  const result = await sql<Omit<IngestionCounts, 'originals'>>`
    select (select count(*) from data_files)::int as files,
           (select count(*) from raw_timestamps)::int as timestamps,
           (select count(*) from raw_values)::int as "values"`.execute(db);
  return { ...result.rows[0]!, originals: (await originals.storedFileIds(db)).length };
}

/** A CSV as the default delimited reader reads it: 'Timestamp' then channels, one row a minute from `start` (logger clock). */
export function csvFile(options: {
  start: string;
  rows: number;
  channels?: string[];
  value?: (row: number, channel: number) => string;
}): string {
  const channels = options.channels ?? ['SO2', 'CO2', 'Flow'];
  const lines = [['Timestamp', ...channels].join(',')];
  const start = Date.parse(`${options.start.replace(' ', 'T')}Z`);
  for (let r = 0; r < options.rows; r++) {
    const t = new Date(start + r * 60_000).toISOString().replace('T', ' ').slice(0, 19);
    lines.push([t, ...channels.map((_, c) => options.value?.(r, c) ?? (r + c / 10).toFixed(1))].join(','));
  }
  return `${lines.join('\n')}\n`;
}

export const CSV_CONFIGURATION = JSON.stringify({
  delimiter: ',',
  decimalSeparator: '.',
  headerRow: 1,
  firstDataRow: 2,
  timestampColumns: ['Timestamp'],
  timestampFormat: 'YYYY-MM-DD HH:mm:ss',
});

/** Creates a data source (primary unless told) of the default delimited reader (one sample a minute) as the SystemAdmin; answers its id. */
export async function createCsvDataSource(
  server: TestServer,
  facilityId: string,
  overrides: { utcTimezoneOffsetInMinutes?: number; name?: string; isPrimary?: boolean } = {},
): Promise<string> {
  const created = await (
    await server.as('admin')
  ).post(`/api/algorithm/facility/${facilityId}/datasource`, {
    name: overrides.name ?? 'Logger',
    dataSourceReaderId: 'delimited-text',
    dataSourceReaderConfiguration: CSV_CONFIGURATION,
    measureFrequencyInSeconds: 60,
    utcTimezoneOffsetInMinutes: overrides.utcTimezoneOffsetInMinutes ?? 0,
    note: '',
    isPrimary: overrides.isPrimary ?? true,
  });
  if (created.statusCode !== 201) throw new Error(`data source not created: ${created.body}`);
  return created.json().id as string;
}

/**
 * A ship logging through a CSV data source: the data source with a channel of each name (on/off channels Boolean,
 * the others Double), one file uploaded through the API, and then the ship's approved default calculations (which read
 * the channels of their names). The upload queues no execution (`?execute=false`): the caller executes the period it
 * wants once the calculations are there. Answers the data source's id.
 */
export async function csvShipWithData(
  server: TestServer,
  facilityId: string,
  file: {
    channels: readonly string[];
    fileName: string;
    content: string;
    booleanChannels?: readonly string[];
  },
): Promise<string> {
  const dataSourceId = await createCsvDataSource(server, facilityId);
  const admin = await server.as('admin');
  const booleans = file.booleanChannels ?? ['SCRUBBER_RUNNING'];
  for (const name of file.channels) {
    const created = await admin.post(
      `/api/algorithm/facilitydatasource/${dataSourceId}/facilitydatasourcechannels`,
      {
        source: name,
        name,
        dataType: booleans.includes(name) ? 'Boolean' : 'Double',
        description: '',
        unit: '',
        qualityScore: 5,
      },
    );
    if (created.statusCode >= 300) throw new Error(`channel ${name} not created: ${created.body}`);
  }
  const uploaded = await sendFile(
    server,
    'admin',
    'POST',
    `/api/algorithm/facilitydatasource/${dataSourceId}/file?execute=false`,
    file.fileName,
    file.content,
  );
  if (uploaded.statusCode >= 300) throw new Error(`file not uploaded: ${uploaded.body}`);
  const errors = (uploaded.json() as { errorMessages?: string[] }).errorMessages ?? [];
  if (errors.length) throw new Error(`file read with errors: ${errors.join('; ')}`);
  await seedDefaultMeasurementCalculations(server.services.database.db, facilityId, new Date('2000-01-01'));
  return dataSourceId;
}
