import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoShips } from '@portal/demo-fleet';
import { configureDemoDataSource } from '../src/features/files/demo';
import { startTestServer, type TestServer } from './harness';
import { CSV_CONFIGURATION } from './upload-helpers';

/**
 * The carbon ledger's inputs (issue 31): a ship's particulars through the ship info edit, and a fuel flow channel's
 * consumer and fuel type through the channel mapping calls.
 */

let server: TestServer;
let north: string;
let south: string;
beforeAll(async () => {
  server = await startTestServer();
  north = server.seed.facilityIds.baltic_tern!;
  south = server.seed.facilityIds.gulf_horizon!;
});
afterAll(async () => {
  await server?.close();
});

/** The audit entries of an action on a subject, oldest first. */
const auditOf = (action: string, subject: string) =>
  server.services.database.db
    .selectFrom('audit_log')
    .select(['detail', 'user_id'])
    .where('action', '=', action)
    .where('subject', '=', subject)
    .orderBy('id')
    .execute();

describe("a ship's particulars", () => {
  const info = (overrides: Record<string, unknown> = {}) => ({
    name: 'Baltic Tern',
    imo: '9314558',
    scrubberSystemType: 'Hybrid',
    numberOfScrubbers: 1,
    totalEffectKW: 11200,
    systemManufacturer: 'Yara Marine',
    startDate: null,
    endDate: null,
    imageBase64: null,
    ...overrides,
  });

  it('are answered with the ship; the demo ships have believable ones from the seed', async () => {
    const ship = (await (await server.as('north.anna')).get(`/api/facilities/${north}/facility`)).json();
    expect(ship).toMatchObject({ shipType: 'BULK_CARRIER', deadweightTonnes: 58_100, grossTonnage: 32_987 });
    const list = (await (await server.as('south.maria')).get('/api/facilities')).json() as {
      id: string;
      shipType: string;
    }[];
    expect(list.find((s) => s.id === south)?.shipType).toBe('TANKER');
  });

  it('are saved with the ship info, in the same transaction as its audit entry naming what changed', async () => {
    const admin = await server.as('admin');
    const before = (await auditOf('facility.update', north)).length;
    const saved = await admin.put(
      `/api/facilities/${north}/facility`,
      info({ shipType: 'GENERAL_CARGO_SHIP', deadweightTonnes: '12450.5', grossTonnage: 9611 }),
    );
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({
      shipType: 'GENERAL_CARGO_SHIP',
      deadweightTonnes: 12_450.5,
      grossTonnage: 9_611,
    });
    const entries = await auditOf('facility.update', north);
    expect(entries).toHaveLength(before + 1);
    expect(entries.at(-1)!.detail).toEqual({
      name: 'Baltic Tern',
      particulars: {
        shipType: { from: 'BULK_CARRIER', to: 'GENERAL_CARGO_SHIP' },
        deadweightTonnes: { from: 58_100, to: 12_450.5 },
        grossTonnage: { from: 32_987, to: 9_611 },
      },
    });
  });

  it("stay as they are when the edit leaves them out (the spec's form), and are cleared by null", async () => {
    const admin = await server.as('admin');
    const kept = await admin.put(`/api/facilities/${north}/facility`, info({ numberOfScrubbers: 2 }));
    expect(kept.json()).toMatchObject({
      numberOfScrubbers: 2,
      shipType: 'GENERAL_CARGO_SHIP',
      grossTonnage: 9_611,
    });
    expect((await auditOf('facility.update', north)).at(-1)!.detail).toEqual({ name: 'Baltic Tern' });
    const cleared = await admin.put(
      `/api/facilities/${north}/facility`,
      info({ grossTonnage: null, shipType: '' }),
    );
    expect(cleared.json()).toMatchObject({ shipType: null, deadweightTonnes: 12_450.5, grossTonnage: null });
    await admin.put(
      `/api/facilities/${north}/facility`,
      info({ shipType: 'BULK_CARRIER', deadweightTonnes: 58_100, grossTonnage: 32_987 }),
    );
  });

  it('that are not valid are refused with a plain message per field, and nothing is stored', async () => {
    const admin = await server.as('admin');
    const before = (await admin.get(`/api/facilities/${north}/facility`)).json();
    const entries = (await auditOf('facility.update', north)).length;
    const refused = await admin.put(
      `/api/facilities/${north}/facility`,
      info({ name: 'Renamed', shipType: 'Bulker', deadweightTonnes: -5, grossTonnage: 3.5 }),
    );
    expect(refused.statusCode).toBe(400);
    expect(refused.json().fields).toEqual({
      shipType: 'Choose a ship type from the list',
      deadweightTonnes: 'Deadweight must be more than 0 t',
      grossTonnage: 'Gross tonnage is a whole number',
    });
    const tooBig = await admin.put(
      `/api/facilities/${north}/facility`,
      info({ deadweightTonnes: 58_100_000 }),
    );
    expect(tooBig.json().fields).toEqual({ deadweightTonnes: 'Deadweight must be at most 600,000 t' });
    expect((await admin.get(`/api/facilities/${north}/facility`)).json()).toEqual(before);
    expect(await auditOf('facility.update', north)).toHaveLength(entries);
  });

  it("of another organization's ship are not found, and a UserAdmin may not change the own ship's", async () => {
    const northAdmin = await server.as('north.admin');
    const body = info({ shipType: 'TANKER' });
    expect((await northAdmin.put(`/api/facilities/${south}/facility`, body)).statusCode).toBe(404);
    expect((await northAdmin.put(`/api/facilities/${north}/facility`, body)).statusCode).toBe(403);
    expect((await (await server.as('north.anna')).get(`/api/facilities/${south}/facility`)).statusCode).toBe(
      404,
    );
    const admin = await server.as('admin');
    expect((await admin.get(`/api/facilities/${south}/facility`)).json().shipType).toBe('TANKER');
    expect((await admin.get(`/api/facilities/${north}/facility`)).json().shipType).toBe('BULK_CARRIER');
  });
});

describe("a fuel flow channel's consumer and fuel type", () => {
  let ship: string;
  let logger: string;
  let engineLog: string;
  const channelsUrl = (dataSourceId: string) =>
    `/api/algorithm/facilitydatasource/${dataSourceId}/facilitydatasourcechannels`;
  type Channel = {
    id: string;
    name: string;
    source: string;
    dataType: string;
    unit: string | null;
    consumer: string | null;
    fuelTypeSource: string | null;
    fuelType: string | null;
    fuelTypeChannelId: string | null;
    lngEngine: string | null;
  };
  const channels = async (dataSourceId: string) =>
    (await (await server.as('admin')).get(channelsUrl(dataSourceId))).json() as Channel[];
  const byName = async (dataSourceId: string, name: string) =>
    (await channels(dataSourceId)).find((c) => c.name === name)!;

  beforeAll(async () => {
    const admin = await server.as('admin');
    ship = server.seed.facilityIds.atlantic_meridian!;
    const dataSource = (name: string) => ({
      name,
      dataSourceReaderId: 'delimited-text',
      dataSourceReaderConfiguration: CSV_CONFIGURATION,
      measureFrequencyInSeconds: 60,
      utcTimezoneOffsetInMinutes: 0,
      note: '',
      isPrimary: false,
    });
    logger = (await admin.post(`/api/algorithm/facility/${ship}/datasource`, dataSource('Logger'))).json().id;
    engineLog = (
      await admin.post(`/api/algorithm/facility/${ship}/datasource`, dataSource('EngineLog'))
    ).json().id;
  });

  it('is set when a flow in kg/h is mapped, answered with the mapping and named in its audit entry', async () => {
    const admin = await server.as('admin');
    const created = await admin.post(channelsUrl(logger), {
      source: 'ME_FO_FLOW',
      name: 'FUEL_FLOW',
      dataType: 'Double',
      unit: 'kg/h',
      consumer: 'MAIN_ENGINE',
      fuelTypeSource: 'fixed',
      fuelType: 'HFO',
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      name: 'FUEL_FLOW',
      consumer: 'MAIN_ENGINE',
      fuelTypeSource: 'fixed',
      fuelType: 'HFO',
      fuelTypeChannelId: null,
      lngEngine: null,
    });
    const [entry] = await auditOf('channel.create', created.json().id);
    expect(entry!.detail).toMatchObject({
      dataSourceId: logger,
      name: 'FUEL_FLOW',
      fuel: { consumer: 'MAIN_ENGINE', fuelTypeSource: 'fixed', fuelType: 'HFO' },
    });
    // A channel that is no fuel flow has none of them.
    const so2 = await admin.post(channelsUrl(logger), {
      source: 'SO2',
      name: 'SO2_PPM',
      dataType: 'Double',
      unit: 'ppm',
    });
    expect(so2.json()).toMatchObject({ consumer: null, fuelTypeSource: null, fuelType: null });
    const type = await admin.post(channelsUrl(logger), {
      source: 'FO_TYPE',
      name: 'FUEL_TYPE',
      dataType: 'Integer',
    });
    expect(type.statusCode).toBe(201);
  });

  it('is refused with a plain message on a channel that is no fuel flow, or when it is incomplete; nothing is stored', async () => {
    const admin = await server.as('admin');
    const before = await channels(logger);
    const entries = await server.services.database.db
      .selectFrom('audit_log')
      .select('id')
      .where('action', 'in', ['channel.create', 'channel.update', 'channel.replace'])
      .execute();
    const washwater = await admin.post(channelsUrl(logger), {
      source: 'WW_FLOW',
      name: 'WASHWATER_FLOW',
      dataType: 'Double',
      unit: 't/h',
      consumer: 'OTHER',
      fuelTypeSource: 'fixed',
      fuelType: 'MDO_MGO',
    });
    expect(washwater.statusCode).toBe(400);
    expect(washwater.json().fields).toEqual({
      consumer: "Only a fuel flow channel in kg/h has a consumer; this channel's unit is t/h",
    });
    const incomplete = await admin.post(channelsUrl(logger), {
      source: 'AE_FO_FLOW',
      name: 'AE_FUEL_FLOW',
      dataType: 'Double',
      unit: 'kg/h',
      consumer: 'AUX_ENGINE',
    });
    expect(incomplete.json()).toMatchObject({
      message:
        "Say where the fuel type comes from: a fixed fuel, a fuel type channel or the record book's change-overs",
      fields: { fuelTypeSource: expect.any(String) },
    });
    const unknown = await admin.post(channelsUrl(logger), {
      source: 'AE_FO_FLOW',
      name: 'AE_FUEL_FLOW',
      dataType: 'Double',
      unit: 'kg/h',
      consumer: 'GENSET',
      fuelTypeSource: 'fixed',
      fuelType: 'VLSFO',
    });
    expect(unknown.json().fields).toEqual({
      consumer: 'Choose main engine, auxiliary engine, boiler or other',
      fuelType: 'Choose the fuel: HFO, LFO, MDO/MGO, LNG, Methanol',
    });
    const notOfShip = await admin.post(channelsUrl(logger), {
      source: 'AE_FO_FLOW',
      name: 'AE_FUEL_FLOW',
      dataType: 'Double',
      unit: 'kg/h',
      consumer: 'AUX_ENGINE',
      fuelTypeSource: 'channel',
      // A channel id of no channel at all (changing one character of a real id kept it whole one time in 16).
      fuelTypeChannelId: randomUUID(),
    });
    expect(notOfShip.json().fields).toEqual({
      fuelTypeChannelId: 'The fuel type channel is not a channel of this ship',
    });
    expect(await channels(logger)).toEqual(before);
    expect(
      await server.services.database.db
        .selectFrom('audit_log')
        .select('id')
        .where('action', 'in', ['channel.create', 'channel.update', 'channel.replace'])
        .execute(),
    ).toHaveLength(entries.length);
  });

  it('is set for a whole list, reading the fuel type from a fuel type channel; left out, it stays', async () => {
    const admin = await server.as('admin');
    const [flow, so2, type] = await Promise.all(
      ['FUEL_FLOW', 'SO2_PPM', 'FUEL_TYPE'].map((n) => byName(logger, n)),
    );
    // As the spec's screens send a list: the body fields only, no fuel attributes on the existing mappings.
    const plain = (c: Channel) => ({
      id: c.id,
      source: c.source,
      name: c.name,
      dataType: c.dataType,
      unit: c.unit,
    });
    const applied = await admin.put(channelsUrl(logger), [
      plain(flow!),
      plain(so2!),
      plain(type!),
      {
        source: 'AE_FO_FLOW',
        name: 'AE_FUEL_FLOW',
        dataType: 'Double',
        unit: 'KGH',
        consumer: 'AUX_ENGINE',
        fuelTypeSource: 'channel',
        fuelTypeChannelId: type!.id,
      },
      {
        source: 'BLR_FO_FLOW',
        name: 'BOILER_FUEL_FLOW',
        dataType: 'Double',
        unit: 'kg/h',
        consumer: 'BOILER',
        fuelTypeSource: 'change-overs',
      },
    ]);
    expect(applied.statusCode).toBe(200);
    const after = Object.fromEntries((applied.json() as Channel[]).map((c) => [c.name, c]));
    expect(after.FUEL_FLOW).toMatchObject({ id: flow!.id, consumer: 'MAIN_ENGINE', fuelType: 'HFO' });
    expect(after.AE_FUEL_FLOW).toMatchObject({ consumer: 'AUX_ENGINE', fuelTypeChannelId: type!.id });
    expect(after.BOILER_FUEL_FLOW).toMatchObject({
      consumer: 'BOILER',
      fuelTypeSource: 'change-overs',
      fuelType: null,
    });
    const entry = (await auditOf('channel.replace', logger)).at(-1)!;
    expect(entry.detail).toMatchObject({ added: 2, changed: 0, removed: 0 });
  });

  it('keeps a fuel type channel that another reads from going: one mapping, a list, a data source', async () => {
    const admin = await server.as('admin');
    const type = await byName(logger, 'FUEL_TYPE');
    const single = await admin.delete(`${channelsUrl(logger)}/${type.id}`);
    expect(single.statusCode).toBe(409);
    expect(single.json().message).toBe(
      'FUEL_TYPE logs the fuel type of AE_FUEL_FLOW: give it another fuel type source first',
    );
    const list = (await channels(logger)).filter((c) => c.name !== 'FUEL_TYPE').map((c) => ({ ...c }));
    const refused = await admin.put(channelsUrl(logger), list);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().fields).toEqual({
      [`removed.${type.id}`]:
        'FUEL_TYPE logs the fuel type of AE_FUEL_FLOW: give it another fuel type source first',
    });
    // Nor may it become a flow itself, or stop logging numbers, while it is read.
    const asText = await admin.put(`${channelsUrl(logger)}/${type.id}`, {
      source: 'FO_TYPE',
      name: 'FUEL_TYPE',
      dataType: 'String',
    });
    expect(asText.json().fields).toEqual({
      dataType:
        'AE_FUEL_FLOW reads its fuel type from this channel: it must log numbers, the fuel codes 0 HFO, 1 LFO, 2 MDO/MGO, 3 LNG, 4 Methanol',
    });
    // A flow of another data source of the ship may read it too; then that data source cannot go.
    const genset = await admin.post(channelsUrl(engineLog), {
      source: 'DG1_FUEL',
      name: 'DG1_FUEL_FLOW',
      dataType: 'Double',
      unit: 'kg/h',
      consumer: 'AUX_ENGINE',
      fuelTypeSource: 'channel',
      fuelTypeChannelId: type.id,
    });
    expect(genset.statusCode).toBe(201);
    const dropped = await admin.delete(`/api/algorithm/facility/${ship}/datasource/${logger}`);
    expect(dropped.statusCode).toBe(409);
    expect(dropped.json().message).toContain('FUEL_TYPE logs the fuel type of DG1_FUEL_FLOW');
    expect((await byName(logger, 'FUEL_TYPE')).id).toBe(type.id);
  });

  it('is changed on one mapping with its values before and after in the audit entry', async () => {
    const admin = await server.as('admin');
    const ae = await byName(logger, 'AE_FUEL_FLOW');
    const changed = await admin.put(`${channelsUrl(logger)}/${ae.id}`, {
      source: ae.source,
      name: ae.name,
      dataType: ae.dataType,
      unit: ae.unit,
      fuelTypeSource: 'fixed',
      fuelType: 'MDO_MGO',
      fuelTypeChannelId: null,
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({
      consumer: 'AUX_ENGINE',
      fuelType: 'MDO_MGO',
      fuelTypeChannelId: null,
    });
    const [entry] = await auditOf('channel.update', ae.id);
    expect(entry!.detail).toMatchObject({
      name: 'AE_FUEL_FLOW',
      fuel: {
        fuelTypeSource: { from: 'channel', to: 'fixed' },
        fuelType: { from: null, to: 'MDO_MGO' },
        fuelTypeChannelId: { from: (await byName(logger, 'FUEL_TYPE')).id, to: null },
      },
    });
  });

  it('comes back with a mapping an Undo brings back, and goes along when the configuration is copied to another ship', async () => {
    const admin = await server.as('admin');
    const before = await channels(logger);
    const withoutBoiler = before.filter((c) => c.name !== 'BOILER_FUEL_FLOW');
    expect((await admin.put(channelsUrl(logger), withoutBoiler)).statusCode).toBe(200);
    // The Undo of the spec's screens sends the mappings back without the fuel attributes.
    const undo = before.map((c) => ({
      id: c.id,
      source: c.source,
      name: c.name,
      dataType: c.dataType,
      unit: c.unit,
    }));
    expect((await admin.put(channelsUrl(logger), undo)).statusCode).toBe(200);
    expect(await channels(logger)).toEqual(before);

    const target = (
      await admin.post('/api/facilities', {
        organizationId: server.seed.organizationIds.north!,
        name: 'MV Copy',
      })
    ).json().id as string;
    expect(
      (await admin.put(`/api/algorithm/facilities/${target}/configurations`, { sourceFacilityId: ship }))
        .statusCode,
    ).toBe(200);
    const copies = (await admin.get(`/api/algorithm/facility/${target}/datasource`)).json() as {
      name: string;
      channels: Channel[];
    }[];
    const copiedLogger = copies.find((d) => d.name === 'Logger')!.channels;
    const copiedGenset = copies
      .find((d) => d.name === 'EngineLog')!
      .channels.find((c) => c.name === 'DG1_FUEL_FLOW')!;
    const copiedType = copiedLogger.find((c) => c.name === 'FUEL_TYPE')!;
    expect(copiedLogger.find((c) => c.name === 'FUEL_FLOW')).toMatchObject({
      consumer: 'MAIN_ENGINE',
      fuelType: 'HFO',
    });
    expect(copiedGenset).toMatchObject({ consumer: 'AUX_ENGINE', fuelTypeSource: 'channel' });
    // It reads the copied fuel type channel, not the other ship's.
    expect(copiedGenset.fuelTypeChannelId).toBe(copiedType.id);
    expect(copiedType.id).not.toBe((await byName(logger, 'FUEL_TYPE')).id);
  });

  it("of another organization's ship is not found, and a UserAdmin may not set it on the own ship", async () => {
    const flow = await byName(logger, 'FUEL_FLOW');
    const body = { source: flow.source, name: flow.name, dataType: 'Double', unit: 'kg/h', fuelType: 'LFO' };
    const maria = await server.as('south.admin');
    expect((await maria.put(`${channelsUrl(logger)}/${flow.id}`, body)).statusCode).toBe(404);
    expect((await maria.put(channelsUrl(logger), [])).statusCode).toBe(404);
    const northAdmin = await server.as('north.admin');
    expect((await northAdmin.put(`${channelsUrl(logger)}/${flow.id}`, body)).statusCode).toBe(403);
    expect((await byName(logger, 'FUEL_FLOW')).fuelType).toBe('HFO');
  });
});

describe("the demo ships' mappings", () => {
  it('give the fuel flows their consumer and fuel, the changing ship reading its FUEL_TYPE channel', async () => {
    const coral = demoShips().find((s) => s.key === 'coral_navigator')!;
    const dataSourceId = await configureDemoDataSource(
      server.services.database.db,
      coral,
      server.seed.facilityIds.coral_navigator!,
      'demo',
    );
    const mapped = (
      await (
        await server.as('admin')
      ).get(`/api/algorithm/facilitydatasource/${dataSourceId}/facilitydatasourcechannels`)
    ).json() as {
      id: string;
      name: string;
      consumer: string | null;
      fuelTypeSource: string | null;
      fuelType: string | null;
      fuelTypeChannelId: string | null;
    }[];
    const named = Object.fromEntries(mapped.map((c) => [c.name, c]));
    expect(
      mapped
        .filter((c) => c.consumer !== null)
        .map((c) => [c.name, c.consumer, c.fuelTypeSource, c.fuelType]),
    ).toEqual([
      ['AE_FUEL_FLOW', 'AUX_ENGINE', 'fixed', 'MDO_MGO'],
      ['BOILER_FUEL_FLOW', 'BOILER', 'fixed', 'MDO_MGO'],
      ['FUEL_FLOW', 'MAIN_ENGINE', 'channel', null],
    ]);
    expect(named.FUEL_FLOW!.fuelTypeChannelId).toBe(named.FUEL_TYPE!.id);
  });
});
