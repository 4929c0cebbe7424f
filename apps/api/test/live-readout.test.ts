import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeStreamSamples } from '../src/storage';
import { startTestServer, type TestServer } from './harness';
import { createCsvDataSource } from './upload-helpers';

/**
 * The ship's live readout, GET /api/facilities/{id}/live (docs/decisions/0129-live-readout.md): the edge node's link
 * and the latest streamed value of each channel of the hour before the ship's latest streamed sample, named by its
 * mapping, mapped channels first; nothing for a ship that never streamed; "Ship not found" for another
 * organization's ship.
 */
const MIN = 60_000;
const LOCAL_ID = '/dnv-v2/vis-3-4a/411.1/C101.31/meta/qty-temperature';

let server: TestServer;
let ship: string;
let dataSourceId: string;

beforeAll(async () => {
  server = await startTestServer();
  ship = server.seed.facilityIds.straits_pioneer!;
  dataSourceId = await createCsvDataSource(server, ship, { name: 'Gateway', isPrimary: false });
  const admin = await server.as('admin');
  const mapped = await admin.post(
    `/api/algorithm/facilitydatasource/${dataSourceId}/facilitydatasourcechannels`,
    {
      source: 'ME_FO_FLOW',
      name: 'FUEL_FLOW_LIVE',
      dataType: 'Double',
      unit: 'kg/h',
      localId: LOCAL_ID,
    },
  );
  expect(mapped.statusCode, mapped.body).toBe(201);
});
afterAll(async () => {
  await server?.close();
});

describe('live readout', () => {
  it('answers no link and no values for a ship that never streamed', async () => {
    const answer = await (await server.as('north.anna')).get(`/api/facilities/${ship}/live`);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({ facilityId: ship, link: null, values: [] });
  });

  it("answers each channel's latest value of the last hour, mapped first, and the link", async () => {
    const db = server.services.database.db;
    const end = Math.floor(Date.now() / MIN) * MIN;
    const sample = (channel: string, time: number, value: number | null, isHistorical = false) => ({
      facilityId: ship,
      dataSourceId,
      channel,
      time,
      value,
      isHistorical,
    });
    await storeStreamSamples(db, [
      sample('ME_FO_FLOW', end - 2 * MIN, 1000),
      sample('ME_FO_FLOW', end - MIN, 1100),
      // Late (replayed) but the newest of its channel.
      sample('ME_FO_FLOW', end, 1250, true),
      sample('AUX_TEMP', end - 5 * MIN, 71.5),
      // Silent for more than an hour before the ship's latest sample: not live.
      sample('OLD_CHANNEL', end - 61 * MIN, 3),
    ]);
    await db
      .insertInto('stream_links')
      .values({
        facility_id: ship,
        online: true,
        changed_on: new Date(end - 3 * MIN),
        last_message_on: new Date(end),
      })
      .execute();
    const answer = (await (await server.as('north.anna')).get(`/api/facilities/${ship}/live`)).json();
    expect(answer.link).toEqual({
      online: true,
      since: new Date(end - 3 * MIN).toISOString(),
      lastMessageOn: new Date(end).toISOString(),
    });
    expect(answer.values).toEqual([
      {
        dataSourceId,
        dataSourceName: 'Gateway',
        channel: 'ME_FO_FLOW',
        name: 'FUEL_FLOW_LIVE',
        unit: 'kg/h',
        localId: LOCAL_ID,
        sourceTime: new Date(end).toISOString(),
        value: 1250,
        isHistorical: true,
      },
      {
        dataSourceId,
        dataSourceName: 'Gateway',
        channel: 'AUX_TEMP',
        name: null,
        unit: null,
        localId: null,
        sourceTime: new Date(end - 5 * MIN).toISOString(),
        value: 71.5,
        isHistorical: false,
      },
    ]);
  });

  it("is 'Ship not found' for another organization's ship", async () => {
    const answer = await (await server.as('south.maria')).get(`/api/facilities/${ship}/live`);
    expect(answer.statusCode).toBe(404);
    expect(answer.json().message).toBe('Ship not found');
  });
});
