import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DEFAULT_MEASUREMENT_FIELDS } from '@portal/formula';
import { seedDefaultMeasurementCalculations } from '../src/features/calculations/seed';
import { startTestServer, type TestServer } from './harness';

let server: TestServer;
let admin: Awaited<ReturnType<TestServer['as']>>;
/** A north ship not shared with south, one that is, and a south ship. */
let northShip: string;
let sharedShip: string;
let southShip: string;
const fieldIds: Record<string, string> = {};
const channelIds: Record<string, string> = {};

const db = () => server.services.database.db;
const mfUrl = (facilityId: string, field: string, rest = '') =>
  `/api/algorithm/facility/${facilityId}/measurement-field/${fieldIds[field]}/calculations${rest}`;

async function addDataSource(facilityId: string, channels: string[]): Promise<Record<string, string>> {
  const source = await db()
    .insertInto('facility_data_sources')
    .values({
      facility_id: facilityId,
      name: `Logger_${Math.random().toString(36).slice(2, 8)}`,
      is_primary: true,
      reader_id: 'delimited',
      reader_configuration: '{}',
      measure_frequency_seconds: 60,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const ids: Record<string, string> = {};
  for (const name of channels) {
    const row = await db()
      .insertInto('data_source_channels')
      .values({
        facility_id: facilityId,
        data_source_id: source.id,
        source: name.toLowerCase(),
        name,
        data_type: name === 'SCRUBBER_RUNNING' ? 'Boolean' : 'Double',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids[name] = row.id;
  }
  return ids;
}

async function create(facilityId: string, field: string, body: Record<string, unknown>) {
  const response = await admin.post(mfUrl(facilityId, field), body);
  expect(response.statusCode).toBe(201);
  return response.json().calculation as {
    id: string;
    version: number;
    revision: number;
    [k: string]: unknown;
  };
}

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.as('admin');
  const { north, south } = server.seed.organizationIds;
  const ships = await db().selectFrom('facilities').select(['id', 'primary_organization_id']).execute();
  const shared = new Set(
    (
      await db()
        .selectFrom('organization_facility_access')
        .select('facility_id')
        .where('organization_id', '=', south!)
        .execute()
    ).map((r) => r.facility_id),
  );
  northShip = ships.find((s) => s.primary_organization_id === north && !shared.has(s.id))!.id;
  sharedShip = ships.find((s) => shared.has(s.id))!.id;
  southShip = ships.find((s) => s.primary_organization_id === south)!.id;
  const catalogue = (await admin.get('/api/algorithm/measurement-fields')).json() as {
    id: string;
    name: string;
  }[];
  for (const f of catalogue) fieldIds[f.name] = f.id;
  Object.assign(
    channelIds,
    await addDataSource(northShip, ['FUEL_FLOW', 'SO2_PPM', 'CO2_PCT', 'SCRUBBER_RUNNING', 'SCRUBBER_POWER']),
  );
});
afterAll(async () => {
  await server?.close();
});

describe('measurement field catalogue', () => {
  it('lists the fields of the domain with their data type and unit', async () => {
    const response = await admin.get('/api/algorithm/measurement-fields');
    expect(response.statusCode).toBe(200);
    const fields = response.json() as {
      name: string;
      dataType: string;
      unit: string | null;
      status: string | null;
    }[];
    expect(fields.map((f) => f.name)).toEqual(DEFAULT_MEASUREMENT_FIELDS.map((f) => f.name));
    expect(fields.find((f) => f.name === 'SO2_PPM')).toMatchObject({
      dataType: 'Double',
      unit: 'ppm',
      status: null,
    });
    expect(fields.find((f) => f.name === 'SCRUBBER_RUNNING')).toMatchObject({ dataType: 'Boolean' });
  });

  it('lets anyone who sees the ship read its fields, and hides another organization’s ship', async () => {
    expect(
      (await (await server.as('north.anna')).get(`/api/algorithm/measurement-fields/facility/${northShip}`))
        .statusCode,
    ).toBe(200);
    expect(
      (await (await server.as('south.admin')).get(`/api/algorithm/measurement-fields/facility/${northShip}`))
        .statusCode,
    ).toBe(404);
    expect(
      (await (await server.as('south.maria')).get(`/api/algorithm/measurement-fields/facility/${sharedShip}`))
        .statusCode,
    ).toBe(200);
    expect(
      (
        await (
          await server.as('south.admin')
        ).get(`/api/algorithm/measurement-fields/${fieldIds.SO2_PPM}?facilityId=${northShip}`)
      ).statusCode,
    ).toBe(404);
    expect((await admin.get('/api/algorithm/measurement-fields/not-an-id')).statusCode).toBe(404);
  });
});

describe('validation and test', () => {
  it('answers "Validation successful" for a correct algorithm, resolving channel ids to mapping names', async () => {
    const response = await admin.post('/api/algorithm/calculations/measurement-field/validate-syntax', {
      transformAlgorithm: 'return SO2_PPM / CO2_PCT;',
      inputIds: [channelIds.SO2_PPM, channelIds.CO2_PCT],
      facilityId: northShip,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ errors: [], results: [], success: 'Validation successful' });
  });

  it('gives a formula mistake as an error at its line and character', async () => {
    const response = await admin.post('/api/algorithm/calculations/measurement-field/validate-syntax', {
      transformAlgorithm: '// ratio\nreturn SO2PPM / CO2_PCT;',
      inputIds: [channelIds.SO2_PPM, channelIds.CO2_PCT],
    });
    expect(response.json()).toEqual({
      errors: [
        { message: "Unknown name 'SO2PPM'. Did you mean 'SO2_PPM'?", startLine: 2, startCharacter: 8 },
      ],
      results: [],
      success: null,
    });
  });

  it('refuses an output type the algorithm does not return, and an unknown input id', async () => {
    const mismatch = await admin.post('/api/algorithm/calculations/measurement-field/validate-syntax', {
      transformAlgorithm: 'return "text";',
      inputIds: [],
      outputType: 'Double',
    });
    expect(mismatch.json().errors[0]).toMatchObject({
      message: 'Algorithm must return a value of type Double',
      startLine: 1,
      startCharacter: 8,
    });
    const unknown = await admin.post('/api/algorithm/calculations/measurement-field/validate-syntax', {
      transformAlgorithm: 'return 1;',
      inputIds: ['00000000-0000-0000-0000-000000000001'],
    });
    expect(unknown.json().errors[0].message).toBe("Unknown input '00000000-0000-0000-0000-000000000001'");
    // A channel of another ship is not an input of this one.
    const otherShip = await admin.post('/api/algorithm/calculations/measurement-field/validate-syntax', {
      transformAlgorithm: 'return 1;',
      inputIds: [channelIds.SO2_PPM],
      facilityId: southShip,
    });
    expect(otherShip.json().success).toBeNull();
  });

  it('runs the test data and answers a value per timestamp with "Test successful"', async () => {
    const response = await admin.post('/api/algorithm/calculations/measurement-field/validate-logic', {
      transformAlgorithm:
        'if (SCRUBBER_RUNNING && CO2_PCT >= 0.5)\n  return SO2_PPM / CO2_PCT;\nreturn null;',
      inputIds: [channelIds.SO2_PPM, channelIds.CO2_PCT, channelIds.SCRUBBER_RUNNING],
      inputData: [
        {
          timestamp: '2024-05-01T00:00:00Z',
          inputValues: { SO2_PPM: 20, CO2_PCT: 4, SCRUBBER_RUNNING: true },
        },
        {
          timestamp: '2024-05-01T01:00:00Z',
          inputValues: { SO2_PPM: 20, CO2_PCT: 0.2, SCRUBBER_RUNNING: true },
        },
        {
          timestamp: '2024-05-01T02:00:00Z',
          inputValues: { SO2_PPM: 30, CO2_PCT: 5, SCRUBBER_RUNNING: false },
        },
      ],
      constants: {
        Facility_IMO: '',
        Facility_NumberOfScrubbers: 0,
        Facility_ScrubberSystemType: '',
        Facility_InstalledPower: 0,
      },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      errors: [],
      results: [
        { timestamp: '2024-05-01T00:00:00Z', value: 5 },
        { timestamp: '2024-05-01T01:00:00Z', value: null },
        { timestamp: '2024-05-01T02:00:00Z', value: null },
      ],
      success: 'Test successful',
    });
  });

  it('uses the facility constants of the test data', async () => {
    const response = await admin.post('/api/algorithm/calculations/measurement-field/validate-logic', {
      transformAlgorithm: 'return Facility_TotalEffectKW * 0.015;',
      inputIds: [],
      inputData: [{ timestamp: '2024-05-01T00:00:00Z', inputValues: {} }],
      constants: { Facility_InstalledPower: 10000 },
    });
    expect(response.json().results).toEqual([{ timestamp: '2024-05-01T00:00:00Z', value: 150 }]);
  });

  it('tests a report field algorithm per hourly span over measurement fields', async () => {
    const response = await admin.post('/api/algorithm/calculations/report-field/validate-logic', {
      transformAlgorithm: 'return FUEL_FLOW.Average();',
      inputIds: [fieldIds.FUEL_FLOW],
      algorithmSecondsSpan: 3600,
      inputData: [
        { timestamp: '2024-05-01T00:00:00Z', inputValues: { FUEL_FLOW: 100 } },
        { timestamp: '2024-05-01T00:30:00Z', inputValues: { FUEL_FLOW: 200 } },
        { timestamp: '2024-05-01T01:10:00Z', inputValues: { FUEL_FLOW: 50 } },
      ],
      constants: {},
    });
    expect(response.json()).toEqual({
      errors: [],
      results: [
        { timestamp: '2024-05-01T00:00:00.000Z', value: 150 },
        { timestamp: '2024-05-01T01:00:00.000Z', value: 50 },
      ],
      success: 'Test successful',
    });
    const syntax = await admin.post('/api/algorithm/calculations/report-field/validate-syntax', {
      transformAlgorithm: 'return FUEL_FLOW.Avg();',
      inputIds: [fieldIds.FUEL_FLOW],
    });
    expect(syntax.json().errors[0]).toMatchObject({ startLine: 1, startCharacter: expect.any(Number) });
    // A report field reads measurement fields, not channels.
    const channel = await admin.post('/api/algorithm/calculations/report-field/validate-syntax', {
      transformAlgorithm: 'return 1;',
      inputIds: [channelIds.FUEL_FLOW],
    });
    expect(channel.json().success).toBeNull();
  });

  it('answers a hostile algorithm with an error, not a crash', async () => {
    const hostile = [
      'return constructor;',
      'return this.constructor.constructor("return process")();',
      'return SO2_PPM.__proto__;',
      'return require("fs");',
      `return ${'('.repeat(20_000)}1${')'.repeat(20_000)};`,
      `return ${Array.from({ length: 30_000 }, () => '1').join(' + ')};`,
      'return process.exit(1);',
    ];
    for (const transformAlgorithm of hostile) {
      for (const url of [
        '/api/algorithm/calculations/measurement-field/validate-syntax',
        '/api/algorithm/calculations/measurement-field/validate-logic',
      ]) {
        const response = await admin.post(url, {
          transformAlgorithm,
          inputIds: [channelIds.SO2_PPM],
          inputData: [{ timestamp: '2024-05-01T00:00:00Z', inputValues: { SO2_PPM: 1 } }],
          constants: {},
        });
        expect(response.statusCode).toBe(200);
        const body = response.json();
        if (body.success === null) expect(body.errors.length).toBeGreaterThan(0);
        else expect(typeof body.results[0]?.value).toBe('number');
      }
    }
    // Still serving.
    expect((await admin.get('/api/algorithm/measurement-fields')).statusCode).toBe(200);
  });

  it('reports bad test data as an error', async () => {
    const response = await admin.post('/api/algorithm/calculations/measurement-field/validate-logic', {
      transformAlgorithm: 'return SO2_PPM;',
      inputIds: [channelIds.SO2_PPM],
      inputData: [{ timestamp: 'yesterday-ish', inputValues: { SO2_PPM: 1 } }],
      constants: {},
    });
    expect(response.json().success).toBeNull();
    expect(response.json().errors[0].message).toContain('yesterday-ish');
  });
});

describe('measurement field calculations: states and versions', () => {
  it('creates version 1 revision 0, then a new revision per save of the draft, queuing a recalculation unless told not to', async () => {
    const created = await admin.post(mfUrl(northShip, 'SO2_CO2_RATIO'), {
      inputIds: [],
      transformAlgorithm: '',
    });
    expect(created.json()).toMatchObject({
      message: 'Calculation created successfully',
      calculation: {
        version: 1,
        revision: 0,
        state: 'draft',
        canDelete: true,
        locked: false,
        outputType: 'Double',
      },
    });
    const id = created.json().calculation.id;

    const withoutQueuing = await admin.put(`${mfUrl(northShip, 'SO2_CO2_RATIO')}/${id}?recalculate=false`, {
      transformAlgorithm: 'return SO2_PPM / CO2_PCT;',
      inputIds: [channelIds.SO2_PPM, channelIds.CO2_PCT],
      comment: 'first try',
    });
    expect(withoutQueuing.json()).toMatchObject({
      message: 'Changes were saved',
      calculation: { id, version: 1, revision: 1, recalculationRequestedOn: null, state: 'draft' },
    });

    const saved = await admin.put(`${mfUrl(northShip, 'SO2_CO2_RATIO')}/${id}`, {
      transformAlgorithm: 'return SO2_PPM / CO2_PCT * 1;',
      inputIds: [channelIds.SO2_PPM, channelIds.CO2_PCT],
    });
    expect(saved.json().calculation).toMatchObject({
      id,
      version: 1,
      revision: 2,
      state: 'recalculation-requested',
      comment: 'first try',
    });
    expect(saved.json().calculation.recalculationRequestedOn).not.toBeNull();

    const list = await admin.get(mfUrl(northShip, 'SO2_CO2_RATIO'));
    expect(list.json()).toHaveLength(1);
    expect(list.json()[0]).toMatchObject({ id, revision: 2, canDelete: true });
  });

  it('keeps an approved calculation as it was and makes a new version when its algorithm changes', async () => {
    const calc = await create(northShip, 'SCRUBBER_FUEL', {
      transformAlgorithm: 'return SCRUBBER_POWER * 0.2;',
      inputIds: [channelIds.SCRUBBER_POWER],
      comment: 'v1',
    });
    const approved = await admin.put(`${mfUrl(northShip, 'SCRUBBER_FUEL')}/${calc.id}/approve`, {
      validFrom: '2024-01-01T00:00:00Z',
      validTo: null,
    });
    expect(approved.statusCode).toBe(200);
    expect(approved.json().calculation).toMatchObject({
      approvedOn: expect.any(String),
      canDelete: false,
      validFrom: '2024-01-01T00:00:00.000Z',
      validTo: null,
    });

    // Only the comment: the approved calculation itself.
    const commented = await admin.put(`${mfUrl(northShip, 'SCRUBBER_FUEL')}/${calc.id}?recalculate=false`, {
      transformAlgorithm: 'return SCRUBBER_POWER * 0.2;',
      inputIds: [channelIds.SCRUBBER_POWER],
      comment: 'explained',
    });
    expect(commented.json().calculation).toMatchObject({
      id: calc.id,
      version: 1,
      revision: 0,
      comment: 'explained',
    });

    const changed = await admin.put(`${mfUrl(northShip, 'SCRUBBER_FUEL')}/${calc.id}`, {
      transformAlgorithm: 'return SCRUBBER_POWER * 200 / 1000;',
      inputIds: [channelIds.SCRUBBER_POWER],
    });
    expect(changed.json().calculation).toMatchObject({
      version: 2,
      revision: 0,
      approvedOn: null,
      comment: 'explained',
      transformAlgorithm: 'return SCRUBBER_POWER * 200 / 1000;',
    });
    expect(changed.json().calculation.id).not.toBe(calc.id);

    const list = (await admin.get(mfUrl(northShip, 'SCRUBBER_FUEL'))).json();
    expect(list.map((c: { version: number }) => c.version)).toEqual([2, 1]);
    expect(list[1]).toMatchObject({
      id: calc.id,
      transformAlgorithm: 'return SCRUBBER_POWER * 0.2;',
      approvedOn: expect.any(String),
    });
    expect(
      (
        await admin.put(`${mfUrl(northShip, 'SCRUBBER_FUEL')}/${calc.id}/approve`, {
          validFrom: '2024-02-01T00:00:00Z',
        })
      ).statusCode,
    ).toBe(409);
  });

  it('validates the approval period with the form texts', async () => {
    const calc = await create(northShip, 'ENGINE_LOAD', { transformAlgorithm: 'return 1;', inputIds: [] });
    const missing = await admin.put(`${mfUrl(northShip, 'ENGINE_LOAD')}/${calc.id}/approve`, {
      validFrom: '',
      validTo: null,
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({
      message: 'Valid from date must be filled out',
      fields: { validFrom: 'Valid from date must be filled out' },
    });
    const backwards = await admin.put(`${mfUrl(northShip, 'ENGINE_LOAD')}/${calc.id}/approve`, {
      validFrom: '2024-05-02T00:00:00Z',
      validTo: '2024-05-01T00:00:00Z',
    });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().fields.validTo).toBe('Valid to date cannot be before valid from date');
    const garbage = await admin.put(`${mfUrl(northShip, 'ENGINE_LOAD')}/${calc.id}/approve`, {
      validFrom: 'not a date',
    });
    expect(garbage.json().fields.validFrom).toBe('Must be a valid date');
  });

  it('refuses to approve an algorithm with errors', async () => {
    const calc = await create(northShip, 'WASHWATER_PH', {
      transformAlgorithm: 'return PH + ;',
      inputIds: [],
    });
    const response = await admin.put(`${mfUrl(northShip, 'WASHWATER_PH')}/${calc.id}/approve`, {
      validFrom: '2024-01-01T00:00:00Z',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(
      /^The algorithm has errors; validate it and fix them before approving: .*\(line 1, character \d+\)$/,
    );
    expect((await admin.get(mfUrl(northShip, 'WASHWATER_PH'))).json()[0].approvedOn).toBeNull();
  });

  it('never queues a recalculation of code that does not check: Save refuses, Save without queuing keeps a draft, execute refuses', async () => {
    const url = mfUrl(northShip, 'FUEL_SULFUR');
    const calc = await create(northShip, 'FUEL_SULFUR', { transformAlgorithm: '', inputIds: [] });
    const broken = { transformAlgorithm: 'return T +;', inputIds: [] };

    const save = await admin.put(`${url}/${calc.id}`, broken);
    expect(save.statusCode).toBe(400);
    expect(save.json().message).toMatch(
      /^The algorithm has errors, so no recalculation can be queued with it; fix them, or save it as a draft without queuing: .*\(line 1, character \d+\)$/,
    );
    let saved = (await admin.get(url)).json()[0];
    expect(saved).toMatchObject({ transformAlgorithm: '', recalculationRequestedOn: null, revision: 0 });

    const draft = await admin.put(`${url}/${calc.id}?recalculate=false`, broken);
    expect(draft.statusCode).toBe(200);
    expect(draft.json().calculation).toMatchObject({
      transformAlgorithm: 'return T +;',
      state: 'draft',
      recalculationRequestedOn: null,
    });

    // A recalculation requested earlier with code that checked, and broken since by a draft save, is not queued.
    await db()
      .updateTable('measurement_field_calculations')
      .set({ recalculation_requested_on: new Date() })
      .where('id', '=', calc.id)
      .execute();
    const execute = await admin.post('/api/algorithm/calculations/measurement-fields/recalculation/execute', {
      ids: [calc.id],
    });
    expect(execute.statusCode).toBe(400);
    expect(execute.json().message).toContain('no recalculation can be queued');
    saved = (await admin.get(url)).json()[0];
    expect(saved).toMatchObject({ recalculationQueuedOn: null, locked: false });
  });

  it('ends the open validity of the previous approved calculation where the new one begins', async () => {
    const first = await create(northShip, 'WASHWATER_PAH', { transformAlgorithm: 'return 1;', inputIds: [] });
    await admin.put(`${mfUrl(northShip, 'WASHWATER_PAH')}/${first.id}/approve`, {
      validFrom: '2024-01-01T00:00:00Z',
    });
    const second = await create(northShip, 'WASHWATER_PAH', {
      transformAlgorithm: 'return 2;',
      inputIds: [],
    });
    expect(second.version).toBe(2);
    await admin.put(`${mfUrl(northShip, 'WASHWATER_PAH')}/${second.id}/approve`, {
      validFrom: '2024-06-01T00:00:00Z',
    });
    const byId = async () =>
      new Map(
        (
          (await admin.get(mfUrl(northShip, 'WASHWATER_PAH'))).json() as {
            id: string;
            validFrom: string;
            validTo: string | null;
          }[]
        ).map((c) => [c.id, c]),
      );
    let calcs = await byId();
    expect(calcs.get(first.id)).toMatchObject({
      validFrom: '2024-01-01T00:00:00.000Z',
      validTo: '2024-06-01T00:00:00.000Z',
    });
    expect(calcs.get(second.id)).toMatchObject({ validFrom: '2024-06-01T00:00:00.000Z', validTo: null });

    // Approved later but starting earlier, with no end: valid until the next one begins.
    const third = await create(northShip, 'WASHWATER_PAH', { transformAlgorithm: 'return 3;', inputIds: [] });
    await admin.put(`${mfUrl(northShip, 'WASHWATER_PAH')}/${third.id}/approve`, {
      validFrom: '2024-03-01T00:00:00Z',
      validTo: '',
    });
    calcs = await byId();
    expect(calcs.get(third.id)).toMatchObject({
      validFrom: '2024-03-01T00:00:00.000Z',
      validTo: '2024-06-01T00:00:00.000Z',
    });
    expect(calcs.get(second.id)!.validTo).toBeNull();

    // An explicit end is kept.
    const fourth = await create(northShip, 'WASHWATER_PAH', {
      transformAlgorithm: 'return 4;',
      inputIds: [],
    });
    await admin.put(`${mfUrl(northShip, 'WASHWATER_PAH')}/${fourth.id}/approve`, {
      validFrom: '2025-01-01T00:00:00Z',
      validTo: '2025-02-01T00:00:00Z',
    });
    calcs = await byId();
    expect(calcs.get(second.id)!.validTo).toBe('2025-01-01T00:00:00.000Z');
    expect(calcs.get(fourth.id)!.validTo).toBe('2025-02-01T00:00:00.000Z');
  });

  it('deletes a draft only; afterwards the field has no calculation', async () => {
    const draft = await create(northShip, 'LATITUDE', { transformAlgorithm: 'return 1;', inputIds: [] });
    expect((await admin.delete(`${mfUrl(northShip, 'LATITUDE')}/${draft.id}`)).statusCode).toBe(204);
    expect((await admin.get(mfUrl(northShip, 'LATITUDE'))).json()).toEqual([]);
    expect((await admin.delete(`${mfUrl(northShip, 'LATITUDE')}/${draft.id}`)).statusCode).toBe(404);

    const approved = await create(northShip, 'LATITUDE', { transformAlgorithm: 'return 1;', inputIds: [] });
    expect(approved.version).toBe(1);
    await admin.put(`${mfUrl(northShip, 'LATITUDE')}/${approved.id}/approve`, {
      validFrom: '2024-01-01T00:00:00Z',
    });
    const refused = await admin.delete(`${mfUrl(northShip, 'LATITUDE')}/${approved.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('An approved calculation cannot be deleted');
  });

  it('locks a calculation whose recalculation is queued: save, validate, test, approve and delete answer 409', async () => {
    const calc = await create(northShip, 'LONGITUDE', { transformAlgorithm: 'return 1;', inputIds: [] });
    await db()
      .updateTable('measurement_field_calculations')
      .set({ recalculation_queued_on: new Date() })
      .where('id', '=', calc.id)
      .execute();
    const listed = (await admin.get(mfUrl(northShip, 'LONGITUDE'))).json()[0];
    expect(listed).toMatchObject({ locked: true, state: 'recalculation-queued' });
    const context = { facilityId: northShip, measurementFieldId: fieldIds.LONGITUDE, calculationId: calc.id };
    const answers = [
      await admin.put(`${mfUrl(northShip, 'LONGITUDE')}/${calc.id}`, {
        transformAlgorithm: 'return 2;',
        inputIds: [],
      }),
      await admin.post('/api/algorithm/calculations/measurement-field/validate-syntax', {
        transformAlgorithm: 'return 2;',
        inputIds: [],
        ...context,
      }),
      await admin.post('/api/algorithm/calculations/measurement-field/validate-logic', {
        transformAlgorithm: 'return 2;',
        inputIds: [],
        inputData: [],
        constants: {},
        ...context,
      }),
      await admin.put(`${mfUrl(northShip, 'LONGITUDE')}/${calc.id}/approve`, {
        validFrom: '2024-01-01T00:00:00Z',
      }),
      await admin.delete(`${mfUrl(northShip, 'LONGITUDE')}/${calc.id}`),
    ];
    for (const answer of answers) {
      expect(answer.statusCode).toBe(409);
      expect(answer.json().message).toMatch(/locked/);
    }
    await db()
      .updateTable('measurement_field_calculations')
      .set({ recalculation_queued_on: null })
      .where('id', '=', calc.id)
      .execute();
    expect(
      (
        await admin.put(`${mfUrl(northShip, 'LONGITUDE')}/${calc.id}`, {
          transformAlgorithm: 'return 2;',
          inputIds: [],
        })
      ).statusCode,
    ).toBe(200);
  });

  it('finds a cycle between measurement field calculations', async () => {
    const a = await create(northShip, 'RATIO_MARGIN', {
      transformAlgorithm: 'return SO2_CO2_LIMIT;',
      inputIds: [fieldIds.SO2_CO2_LIMIT],
    });
    expect(
      (
        await admin.put(`${mfUrl(northShip, 'RATIO_MARGIN')}/${a.id}/approve`, {
          validFrom: '2024-01-01T00:00:00Z',
        })
      ).statusCode,
    ).toBe(200);
    const b = await create(northShip, 'SO2_CO2_LIMIT', {
      transformAlgorithm: 'return RATIO_MARGIN;',
      inputIds: [fieldIds.RATIO_MARGIN],
    });
    const validated = await admin.post('/api/algorithm/calculations/measurement-field/validate-syntax', {
      transformAlgorithm: 'return RATIO_MARGIN;',
      inputIds: [fieldIds.RATIO_MARGIN],
      facilityId: northShip,
      measurementFieldId: fieldIds.SO2_CO2_LIMIT,
      calculationId: b.id,
    });
    expect(validated.json()).toMatchObject({
      success: null,
      errors: [
        {
          message:
            'The measurement fields use each other in a cycle: SO2_CO2_LIMIT -> RATIO_MARGIN -> SO2_CO2_LIMIT',
        },
      ],
    });
    const approve = await admin.put(`${mfUrl(northShip, 'SO2_CO2_LIMIT')}/${b.id}/approve`, {
      validFrom: '2024-01-01T00:00:00Z',
    });
    expect(approve.statusCode).toBe(400);
    expect(approve.json().message).toContain('cycle');

    const self = await admin.post('/api/algorithm/calculations/measurement-field/validate-syntax', {
      transformAlgorithm: 'return COMPLIANT;',
      inputIds: [fieldIds.COMPLIANT],
      facilityId: northShip,
      measurementFieldId: fieldIds.COMPLIANT,
    });
    expect(self.json().errors[0].message).toContain('COMPLIANT -> COMPLIANT');
  });
});

describe('measurement field status on a ship', () => {
  it('goes Waiting -> In progress -> Approved -> Active, and counts calculations', async () => {
    const status = async () => {
      const list = (await admin.get(`/api/algorithm/measurement-fields/facility/${northShip}`)).json() as {
        name: string;
        status: string;
      }[];
      return list.find((f) => f.name === 'EXCESS_SULFUR_REMOVED')!;
    };
    expect((await status()).status).toBe('Waiting');
    const calc = await create(northShip, 'EXCESS_SULFUR_REMOVED', {
      transformAlgorithm: 'return 0;',
      inputIds: [],
      qualityScore: 4,
      comment: 'flat',
    });
    expect(await status()).toMatchObject({
      status: 'In progress',
      calculations: 1,
      approvedCalculations: 0,
      activeCalculationRating: null,
    });
    await admin.put(`${mfUrl(northShip, 'EXCESS_SULFUR_REMOVED')}/${calc.id}/approve`, {
      validFrom: new Date(Date.now() - 86_400_000).toISOString(),
    });
    // Valid now, but its values are still to be recalculated.
    expect(await status()).toMatchObject({
      status: 'Approved',
      approvedCalculations: 1,
      activeCalculationRating: 4,
      activeCalculationComment: 'flat',
      version: 1,
      revision: 0,
    });
    await db()
      .updateTable('measurement_field_calculations')
      .set({ recalculation_requested_on: null })
      .where('id', '=', calc.id)
      .execute();
    expect((await status()).status).toBe('Active');

    const detail = (
      await admin.get(
        `/api/algorithm/measurement-fields/${fieldIds.EXCESS_SULFUR_REMOVED}?facilityId=${northShip}`,
      )
    ).json();
    expect(detail).toMatchObject({
      name: 'EXCESS_SULFUR_REMOVED',
      status: 'Active',
      calculations: 1,
      approvedCalculations: 1,
      activeCalculationRating: 4,
      activeCalculationComment: 'flat',
    });
  });

  it('is Approved when the approved calculation is not valid now', async () => {
    const calc = await create(northShip, 'WASHWATER_TURBIDITY', {
      transformAlgorithm: 'return 0;',
      inputIds: [],
    });
    await admin.put(`${mfUrl(northShip, 'WASHWATER_TURBIDITY')}/${calc.id}/approve`, {
      validFrom: '2020-01-01T00:00:00Z',
      validTo: '2020-12-31T00:00:00Z',
    });
    await db()
      .updateTable('measurement_field_calculations')
      .set({ recalculation_requested_on: null })
      .where('id', '=', calc.id)
      .execute();
    const list = (await admin.get(`/api/algorithm/measurement-fields/facility/${northShip}`)).json() as {
      name: string;
      status: string;
    }[];
    expect(list.find((f) => f.name === 'WASHWATER_TURBIDITY')!.status).toBe('Approved');
  });

  it('shows the channels per data source and which the field reads', async () => {
    await create(northShip, 'FUEL_FLOW', {
      transformAlgorithm: 'return FUEL_FLOW;',
      inputIds: [channelIds.FUEL_FLOW],
    });
    const detail = (
      await admin.get(`/api/algorithm/measurement-fields/${fieldIds.FUEL_FLOW}?facilityId=${northShip}`)
    ).json();
    expect(detail.dataSources).toHaveLength(1);
    const channels = detail.dataSources[0].channels as { name: string; usedByField: boolean }[];
    expect(channels.filter((c) => c.usedByField).map((c) => c.name)).toEqual(['FUEL_FLOW']);
    expect(channels.map((c) => c.name)).toContain('SO2_PPM');
  });
});

describe('who may configure calculations', () => {
  it('is SystemAdmin only; another organization’s ship answers 404', async () => {
    const northAdmin = await server.as('north.admin');
    expect((await northAdmin.get(mfUrl(northShip, 'SO2_PPM'))).statusCode).toBe(403);
    expect(
      (await northAdmin.post(mfUrl(northShip, 'SO2_PPM'), { transformAlgorithm: 'return 1;', inputIds: [] }))
        .statusCode,
    ).toBe(403);
    expect(
      (
        await northAdmin.post('/api/algorithm/calculations/measurement-field/validate-syntax', {
          transformAlgorithm: 'return 1;',
          inputIds: [],
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await northAdmin.post('/api/algorithm/calculations/report-field/validate-logic', {
          transformAlgorithm: 'return 1;',
          inputIds: [],
          inputData: [],
          constants: {},
        })
      ).statusCode,
    ).toBe(403);
    const anna = await server.as('north.anna');
    expect(
      (
        await anna.put(`${mfUrl(northShip, 'SO2_PPM')}/00000000-0000-0000-0000-000000000000/approve`, {
          validFrom: '2024-01-01T00:00:00Z',
        })
      ).statusCode,
    ).toBe(403);

    const southAdmin = await server.as('south.admin');
    expect((await southAdmin.get(mfUrl(northShip, 'SO2_PPM'))).statusCode).toBe(404);
    expect(
      (await southAdmin.post(mfUrl(northShip, 'SO2_PPM'), { transformAlgorithm: 'return 1;', inputIds: [] }))
        .statusCode,
    ).toBe(404);
    expect(
      (
        await (
          await server.as('south.maria')
        ).post('/api/algorithm/calculations/measurement-field/validate-syntax', {
          transformAlgorithm: 'return 1;',
          inputIds: [],
          facilityId: northShip,
        })
      ).statusCode,
    ).toBe(404);
  });

  it('answers 404 for an unknown ship, field or calculation', async () => {
    expect(
      (
        await admin.get(
          `/api/algorithm/facility/00000000-0000-0000-0000-000000000000/measurement-field/${fieldIds.SO2_PPM}/calculations`,
        )
      ).statusCode,
    ).toBe(404);
    expect(
      (await admin.get(`/api/algorithm/facility/${northShip}/measurement-field/nope/calculations`))
        .statusCode,
    ).toBe(404);
    expect(
      (
        await admin.put(`${mfUrl(northShip, 'SO2_PPM')}/nope`, {
          transformAlgorithm: 'return 1;',
          inputIds: [],
        })
      ).statusCode,
    ).toBe(404);
  });

  it('refuses a bad body with field messages', async () => {
    const response = await admin.post(mfUrl(northShip, 'SO2_PPM'), {
      transformAlgorithm: 'return 1;',
      inputIds: [],
      requiredSampleIntervalInSeconds: 0,
      qualityScore: 9,
    });
    expect(response.statusCode).toBe(400);
  });
});

describe('report field calculations', () => {
  let fieldId: string;
  const url = (rest = '') => `/api/algorithm/reports/TestCalcReport/fields/${fieldId}/calculations${rest}`;

  beforeAll(async () => {
    await db()
      .insertInto('reports')
      .values({ id: 'TestCalcReport', name: 'Test report', target: 'Facility' })
      .onConflict((oc) => oc.doNothing())
      .execute();
    fieldId = (
      await db()
        .insertInto('report_fields')
        .values({ report_id: 'TestCalcReport', name: 'Average fuel' })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  });

  it('creates, saves (new revision), approves and lists newest first', async () => {
    const created = await admin.post(url(), { transformAlgorithm: '', inputIds: [] });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      message: 'Calculation created successfully',
      calculation: { version: 1, revision: 0, algorithmSecondsSpan: 3600, reportFieldId: fieldId },
    });
    const id = created.json().calculation.id;
    const saved = await admin.put(url(`/${id}?recalculate=false`), {
      transformAlgorithm: 'return FUEL_FLOW.Average();',
      inputIds: [fieldIds.FUEL_FLOW],
    });
    expect(saved.json().calculation).toMatchObject({ revision: 1, recalculationRequestedOn: null });
    const approved = await admin.put(url(`/${id}/approve`), {
      validFrom: '2024-01-01T00:00:00Z',
      validTo: '2024-12-31T00:00:00Z',
    });
    expect(approved.statusCode).toBe(200);
    expect(approved.json().calculation).toMatchObject({
      validTo: '2024-12-31T00:00:00.000Z',
      canDelete: false,
    });
    const changed = await admin.put(url(`/${id}`), {
      transformAlgorithm: 'return FUEL_FLOW.Max();',
      inputIds: [fieldIds.FUEL_FLOW],
    });
    expect(changed.json().calculation).toMatchObject({ version: 2, revision: 0 });
    const list = (await admin.get(url())).json();
    expect(list.map((c: { version: number }) => c.version)).toEqual([2, 1]);
  });

  it('is SystemAdmin only and 404 for a field of another report', async () => {
    expect((await (await server.as('north.admin')).get(url())).statusCode).toBe(403);
    expect(
      (await admin.get(`/api/algorithm/reports/OtherReport/fields/${fieldId}/calculations`)).statusCode,
    ).toBe(404);
  });

  it('refuses to approve a report algorithm with errors', async () => {
    const created = (
      await admin.post(url(), {
        transformAlgorithm: 'return FUEL_FLOW.Avg();',
        inputIds: [fieldIds.FUEL_FLOW],
      })
    ).json().calculation;
    const response = await admin.put(url(`/${created.id}/approve`), { validFrom: '2024-01-01T00:00:00Z' });
    expect(response.statusCode).toBe(400);
  });
});

describe('default measurement calculations of a ship', () => {
  it('seeds approved, valid calculations of every default field, idempotently', async () => {
    const raw = DEFAULT_MEASUREMENT_FIELDS.filter(
      (f) => f.inputNames.length === 1 && f.inputNames[0] === f.name,
    ).map((f) => f.name);
    await addDataSource(southShip, raw);
    const validFrom = new Date('2024-01-01T00:00:00Z');
    const first = await seedDefaultMeasurementCalculations(db(), southShip, validFrom);
    expect(first.created).toEqual(DEFAULT_MEASUREMENT_FIELDS.map((f) => f.name));
    const again = await seedDefaultMeasurementCalculations(db(), southShip, validFrom);
    expect(again.created).toEqual([]);
    expect(again.existing).toHaveLength(DEFAULT_MEASUREMENT_FIELDS.length);

    const list = (await admin.get(`/api/algorithm/measurement-fields/facility/${southShip}`)).json() as {
      status: string;
      approvedCalculations: number;
    }[];
    expect(list.every((f) => f.status === 'Active' && f.approvedCalculations === 1)).toBe(true);

    // Each seeded calculation passes the same validation as the editor's.
    const { count } = await db()
      .selectFrom('measurement_field_calculations')
      .select(sql<number>`count(*)::int`.as('count'))
      .where('facility_id', '=', southShip)
      .executeTakeFirstOrThrow();
    expect(count).toBe(DEFAULT_MEASUREMENT_FIELDS.length);
    const ratio = (
      await admin.get(
        `/api/algorithm/facility/${southShip}/measurement-field/${fieldIds.SO2_CO2_RATIO}/calculations`,
      )
    ).json()[0];
    const test = await admin.post('/api/algorithm/calculations/measurement-field/validate-logic', {
      transformAlgorithm: ratio.transformAlgorithm,
      inputIds: ratio.inputIds,
      facilityId: southShip,
      measurementFieldId: fieldIds.SO2_CO2_RATIO,
      inputData: [
        { timestamp: '2024-05-01T00:00:00Z', inputValues: { SCRUBBER_RUNNING: 1, SO2_PPM: 43, CO2_PCT: 5 } },
        { timestamp: '2024-05-01T00:01:00Z', inputValues: { SCRUBBER_RUNNING: 0, SO2_PPM: 43, CO2_PCT: 5 } },
      ],
      constants: {},
    });
    expect(test.json()).toMatchObject({
      success: 'Test successful',
      results: [{ value: 8.6 }, { value: null }],
    });
  });

  it('skips fields whose channel the ship lacks, and the fields derived from them', async () => {
    const result = await seedDefaultMeasurementCalculations(
      db(),
      sharedShip,
      new Date('2024-01-01T00:00:00Z'),
    );
    expect(result.created).toEqual(['SO2_CO2_LIMIT']);
    expect(result.skipped).toContain('FUEL_FLOW');
    expect(result.skipped).toContain('COMPLIANT');
  });
});
