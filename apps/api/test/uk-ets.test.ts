import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import ExcelJS from 'exceljs';
import type { PortCallRecord } from '@portal/contracts/carbon';
import { METS_FLAGS, type UkEtsYearRecord } from '@portal/contracts/uk-ets';
import { loadConfig } from '../src/config';
import { startTestServer, type TestServer } from './harness';
import { mapLedgerChannels } from './carbon-ship';
import { createCsvDataSource, sendFile } from './upload-helpers';
import { waitForExecutions } from './execution-fixtures';
import { seedDefaultMeasurementCalculations } from '../src/features/calculations/seed';
import { HOUR, dayFiles, expectedLedger, gcNm, type ExpectedPort, type FlowSpec } from './carbon-month';
import { UK_START, UK_T0, UK_T_END, generateUkDays } from './uk-days';

/**
 * UK ETS maritime (issue "Step 5 of 7", part UK): four days of a ship in the Irish Sea (uk-days.ts) uploaded and
 * executed like the carbon month, and the UK ETS figures compared, within 0.01 %, with what DOMAIN.md's definitions
 * give when computed here by plain loops: "100 % of voyages between two UK ports, 50 % between Great Britain and
 * Northern Ireland, 100 % of emissions at berth in UK ports; CO2, CH4, N2O tank-to-wake" from 2026-07-01, the fuel
 * table's factors (CO2 3.114 HFO / 3.206 MGO, CH4 0.00005, N2O 0.00018 g/g) and the GWP100 28 and 265. The annual
 * emissions report JSON is validated against the regulator's own OpenAPI schema (METS Maritime External API 4.0.0,
 * copied as data), and sent to a local HTTP server standing in for METS.
 */

const TOLERANCE = 1e-4;
const within = (actual: number, expected: number, what: string) =>
  expect(Math.abs(actual - expected), `${what}: ${actual} against ${expected}`).toBeLessThanOrEqual(
    Math.abs(expected) * TOLERANCE + 1e-9,
  );

// ---- DOMAIN.md's constants, restated for the independent computation ----
const CO2 = { HFO: 3.114, MDO_MGO: 3.206 } as const;
const CH4 = 0.00005;
const N2O = 0.00018;
const GWP_CH4 = 28;
const GWP_N2O = 265;

// ---- a stand-in for METS: records what it is sent, answers as told ----
interface Received {
  method: string;
  url: string;
  authorization: string | undefined;
  body: unknown;
}
const received: Received[] = [];
let metsAnswer = { status: 204, body: '' };
const mets = http.createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (c: Buffer) => chunks.push(c));
  request.on('end', () => {
    const text = Buffer.concat(chunks).toString('utf8');
    received.push({
      method: request.method ?? '',
      url: request.url ?? '',
      authorization: request.headers.authorization,
      body: text ? (JSON.parse(text) as unknown) : null,
    });
    response.writeHead(metsAnswer.status, { 'content-type': 'application/json' });
    response.end(metsAnswer.body);
  });
});

// ---- the regulator's schema: OpenAPI 3.0's draft-4 style exclusive bounds as JSON Schema 2020-12/draft-07's ----
function openApiToJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(openApiToJsonSchema);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) out[k] = openApiToJsonSchema(v);
  for (const [bound, exclusive] of [
    ['minimum', 'exclusiveMinimum'],
    ['maximum', 'exclusiveMaximum'],
  ] as const)
    if (typeof out[exclusive] === 'boolean') {
      if (out[exclusive] === true) {
        out[exclusive] = out[bound];
        delete out[bound];
      } else delete out[exclusive];
    }
  return out;
}
const metsDocument = JSON.parse(
  readFileSync(
    new URL('../src/features/uk-ets/mets-schema/uk-maritime-ext-openapi-4.0.0.json', import.meta.url),
    'utf8',
  ),
) as { info: { version: string }; components: { schemas: Record<string, unknown> } };
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const ajv = addFormats(new Ajv({ strict: false, allErrors: true }));
ajv.addSchema({ $id: 'mets', components: openApiToJsonSchema(metsDocument.components) });
const validateAer = ajv.compile({ $ref: 'mets#/components/schemas/ExternalAer' });
const schemaErrors = () => JSON.stringify(validateAer.errors, null, 1);

let server: TestServer;
let facilityId: string;
let metsUrl: string;
const { rows } = generateUkDays();
const db = () => server.services.database.db;

const FLOWS: FlowSpec[] = [
  { consumer: 'MAIN_ENGINE', value: (r) => r.me, fuel: () => 'HFO' },
  { consumer: 'AUX_ENGINE', value: (r) => r.ae, fuel: (r) => (r.aeFuel === 2 ? 'MDO_MGO' : 'HFO') },
  { consumer: 'BOILER', value: (r) => r.boiler, fuel: () => 'MDO_MGO' },
];

beforeAll(async () => {
  await new Promise<void>((resolve) => mets.listen(0, '127.0.0.1', resolve));
  metsUrl = `http://127.0.0.1:${(mets.address() as AddressInfo).port}/maritime/api`;
  server = await startTestServer({
    jobs: 'work',
    env: { METS_SEND: 'on', METS_API_URL: metsUrl, METS_API_TOKEN: 'token-of-the-operator' },
  });
  facilityId = server.seed.facilityIds.baltic_tern!;
  const dataSourceId = await createCsvDataSource(server, facilityId);
  const channelIds: Record<string, string> = {};
  Object.assign(channelIds, await mapLedgerChannels(server, dataSourceId));
  await seedDefaultMeasurementCalculations(db(), facilityId, new Date(UK_T0));
  await db()
    .updateTable('facilities')
    .set({ ship_type: 'BULK_CARRIER', deadweight_tonnes: 76_000, gross_tonnage: 43_000, imo: '9876543' })
    .where('id', '=', facilityId)
    .execute();
  const executions = new Set<string>();
  for (const file of dayFiles(rows, UK_T0, UK_T_END)) {
    const response = await sendFile(
      server,
      'north.admin',
      'POST',
      `/api/algorithm/facilitydatasource/${dataSourceId}/file`,
      file.fileName,
      file.content,
    );
    if (response.statusCode !== 200) throw new Error(`${file.fileName}: ${response.body}`);
    const answer = response.json() as { errorMessages: string[]; execution: { id: string } | null };
    if (answer.errorMessages.length) throw new Error(answer.errorMessages.join('; '));
    if (answer.execution) executions.add(answer.execution.id);
  }
  const done = await waitForExecutions(db(), [...executions], 600_000);
  const failed = done.filter((e) => e.state !== 'done');
  if (failed.length) throw new Error(`executions failed: ${failed.map((e) => e.error).join('; ')}`);
  await server.services.queue!.drained(undefined, { timeoutMs: 600_000 });
}, 900_000);

afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => mets.close(resolve));
});

/** Reference ports within 10 nm of the route (as the carbon month's test reads them). */
async function portsNearRoute(): Promise<ExpectedPort[]> {
  const all = await db().selectFrom('ports').select(['locode', 'lat', 'lon']).execute();
  const near = all.filter((p) =>
    rows.some((r, i) => i % 10 === 0 && gcNm([r.lat, r.lon], [p.lat, p.lon]) <= 10),
  );
  return near.map((p) => ({ locode: p.locode, lat: p.lat, lon: p.lon }));
}

describe('UK ETS of four days in the Irish Sea around 1 July 2026', () => {
  /** DOMAIN.md's ledger of the days from 1 July on (the scheme's start), with each leg's part and share. */
  let expected: {
    legs: ReturnType<typeof expectedLedger>['legs'];
    parts: { part: string; share: number }[];
    gases: { co2: number; ch4Co2e: number; n2oCo2e: number }[];
  };
  beforeAll(async () => {
    const ports = await portsNearRoute();
    const covered = rows.filter((r) => r.t >= UK_START);
    const ledger = expectedLedger(covered, ports, FLOWS);
    // The UK part each port is in (DOMAIN.md: UK ports, Northern Ireland's apart): from the shipped reference.
    const ni = new Set(
      (await db().selectFrom('ports').select(['locode', 'area']).where('area', '=', 'GB-NIR').execute()).map(
        (p) => p.locode,
      ),
    );
    const placeOf = (locode: string | undefined) =>
      locode === undefined ? null : !locode.startsWith('GB') ? null : ni.has(locode) ? 'NI' : 'GB';
    const calls = ledger.calls;
    const parts = ledger.legs.map((leg) => {
      if (leg.kind === 'stay') {
        const call = calls.find((c) => c.departure === leg.end);
        return placeOf(call?.locode) ? { part: 'berth', share: 1 } : { part: 'none', share: 0 };
      }
      const from = calls.find((c) => c.departure === leg.start);
      const to = calls.find((c) => c.arrival === leg.end);
      const a = placeOf(from?.locode);
      const b = placeOf(to?.locode);
      if (!a || !b) return { part: 'none', share: 0 };
      return a === b ? { part: 'uk', share: 1 } : { part: 'gb-ni', share: 0.5 };
    });
    const gases = ledger.legs.map((leg) => {
      let co2 = 0;
      let ch4 = 0;
      let n2o = 0;
      for (const [key, f] of leg.fuel) {
        const t = f.kg / 1000;
        co2 += t * CO2[key.split('|')[1] as keyof typeof CO2];
        ch4 += t * CH4;
        n2o += t * N2O;
      }
      return { co2, ch4Co2e: ch4 * GWP_CH4, n2oCo2e: n2o * GWP_N2O };
    });
    expected = { legs: ledger.legs, parts, gases };
    expect(calls.map((c) => c.locode)).toEqual(['GBLIV', 'GBHYM', 'GBBEL']);
  });

  it('is what it says: Liverpool from 30 June, Heysham, Belfast (Northern Ireland), then out to sea', async () => {
    const calls = (
      await (await server.as('north.anna')).get(`/api/facilities/${facilityId}/port-calls`)
    ).json() as PortCallRecord[];
    expect(calls.map((c) => c.portId)).toEqual(['GBLIV', 'GBHYM', 'GBBEL']);
    expect(calls[0]!.arrival).toBe(new Date(UK_T0).toISOString());
    expect(expected.parts.map((p) => p.part)).toEqual(['berth', 'uk', 'berth', 'gb-ni', 'berth', 'none']);
  });

  it('counts each voyage and stay from 1 July by its part, per gas, as DOMAIN.md defines it (within 0.01 %)', async () => {
    const answer = await (
      await server.as('north.anna')
    ).get(`/api/facilities/${facilityId}/uk-ets?year=2026`);
    expect(answer.statusCode, answer.body).toBe(200);
    const year = answer.json() as UkEtsYearRecord;
    expect([year.periodStart, year.periodEnd, year.shipInScope]).toEqual(['2026-07-01', '2026-12-31', true]);
    expect([year.reportDue, year.surrenderDue]).toEqual(['2027-03-31', '2027-04-30']);
    expect(year.lines.map((l) => [l.kind, l.scope, l.share])).toEqual([
      ['stay', 'WITHIN_UK_PORT', 1],
      ['voyage', 'BETWEEN_UK_PORTS', 1],
      ['stay', 'WITHIN_UK_PORT', 1],
      ['voyage', 'BETWEEN_GB_AND_NI', 0.5],
      ['stay', 'WITHIN_UK_PORT', 1],
      ['voyage', 'OUT_OF_SCOPE', 0],
    ]);
    expect(year.lines.map((l) => [l.port, l.fromPort, l.toPort])).toEqual([
      ['Liverpool', null, null],
      [null, 'Liverpool', 'Heysham'],
      ['Heysham', null, null],
      [null, 'Heysham', 'Belfast'],
      ['Belfast', null, null],
      [null, 'Belfast', null],
    ]);
    // The stay at Liverpool counts from 1 July 00:00, not from its arrival on 30 June.
    expect(year.lines[0]!.start).toBe('2026-07-01T00:00:00.000Z');
    year.lines.forEach((line, i) => {
      const e = expected.gases[i]!;
      within(line.emissions.co2, e.co2, `line ${i} CO2`);
      within(line.emissions.ch4Co2e, e.ch4Co2e, `line ${i} CH4 CO2e`);
      within(line.emissions.n2oCo2e, e.n2oCo2e, `line ${i} N2O CO2e`);
      within(
        line.counted.co2e,
        (e.co2 + e.ch4Co2e + e.n2oCo2e) * expected.parts[i]!.share,
        `line ${i} counted`,
      );
    });
    const sum = (part: string, gas: 'co2' | 'ch4Co2e' | 'n2oCo2e', share = false) =>
      expected.gases.reduce(
        (s, g, i) =>
          s +
          (part === 'all' || expected.parts[i]!.part === part
            ? g[gas] * (share ? expected.parts[i]!.share : 1)
            : 0),
        0,
      );
    for (const gas of ['co2', 'ch4Co2e', 'n2oCo2e'] as const) {
      within(year.withinUkPorts[gas], sum('berth', gas), `berths ${gas}`);
      within(year.betweenUkPorts[gas], sum('uk', gas), `UK voyages ${gas}`);
      within(year.betweenGbAndNi[gas], sum('gb-ni', gas), `GB-NI voyages ${gas}`);
      within(year.surrender[gas], sum('all', gas, true), `surrender ${gas}`);
    }
    // The voyage between Liverpool and Heysham, the criterion's own figure: 100 % of its CO2e.
    const ukLeg = expected.gases[1]!;
    within(
      year.lines[1]!.counted.co2e,
      ukLeg.co2 + ukLeg.ch4Co2e + ukLeg.n2oCo2e,
      'Liverpool - Heysham CO2e',
    );
    // The surrender is below the whole (half of GB-NI, none of the voyage out) and above what counts in full.
    expect(year.surrender.co2e).toBeLessThan(
      year.withinUkPorts.co2e + year.betweenUkPorts.co2e + year.betweenGbAndNi.co2e,
    );
    expect(year.notes).toEqual([
      '1 voyage without a known departure or arrival port (before the first call or after the last of the data) is not counted.',
    ]);
  });

  it('covers nothing before the scheme: 2025 has no period, the 30 June fuel at Liverpool is left out', async () => {
    const anna = await server.as('north.anna');
    const y2025 = (
      await anna.get(`/api/facilities/${facilityId}/uk-ets?year=2025`)
    ).json() as UkEtsYearRecord;
    expect([y2025.periodStart, y2025.lines, y2025.surrender.co2e]).toEqual([null, [], 0]);
    const year = (await anna.get(`/api/facilities/${facilityId}/uk-ets?year=2026`)).json() as UkEtsYearRecord;
    const calls = (await anna.get(`/api/facilities/${facilityId}/port-calls`)).json() as PortCallRecord[];
    const wholeStay = calls[0]!.fuel.reduce((s, f) => s + f.tonnes, 0);
    const counted = Object.values(year.lines[0]!.fuelTonnes).reduce((s, t) => s + t, 0);
    const sinceJuly = [...expected.legs[0]!.fuel.values()].reduce((s, f) => s + f.kg, 0) / 1000;
    within(counted, sinceJuly, 'Liverpool fuel from 1 July');
    expect(counted).toBeLessThan(wholeStay * 0.5);
  });

  it("builds the METS annual emissions report, valid against the regulator's schema, with the same figures", async () => {
    const anna = await server.as('north.anna');
    const answer = await anna.get(
      `/api/facilities/${facilityId}/uk-ets/mets-report?year=2026&flag=MT&companyNature=SHIPOWNER`,
    );
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.headers['content-disposition']).toMatch(/attachment; filename=".*_UK_ETS_AER_2026\.json"/);
    const report = answer.json() as {
      shipParticulars: { shipDetails: Record<string, unknown>; fuelTypes: { fuelTypeCode: string }[] }[];
      emissions: { shipEmissions: { annualEmission: Record<string, Record<string, number>> }[] };
    };
    expect(metsDocument.info.version).toBe('4.0.0');
    // The flags the query accepts are the schema's.
    const shipDetails = metsDocument.components.schemas.ExternalAerShipDetails as {
      properties: { flag: { enum: string[] } };
    };
    expect(METS_FLAGS).toEqual(shipDetails.properties.flag.enum);
    expect(validateAer(report), schemaErrors()).toBe(true);
    expect(report.shipParticulars[0]!.shipDetails).toMatchObject({
      shipImoNumber: '9876543',
      shipType: 'BULK',
      grossTonnage: 43_000,
      flag: 'MT',
      allYear: false,
      from: '2026-07-01',
      to: '2026-12-31',
    });
    expect(report.shipParticulars[0]!.fuelTypes.map((f) => f.fuelTypeCode).sort()).toEqual(['HFO', 'MGO']);
    const year = (await anna.get(`/api/facilities/${facilityId}/uk-ets?year=2026`)).json() as UkEtsYearRecord;
    const annual = report.emissions.shipEmissions[0]!.annualEmission;
    within(annual.etsEmissionsBetweenUkPort!.tco2Total!, year.betweenUkPorts.co2, 'METS UK voyages CO2');
    within(
      annual.etsEmissionsBetweenUkAndNiPort!.tch4eqTotal!,
      year.betweenGbAndNi.ch4Co2e,
      'METS GB-NI CH4',
    );
    within(annual.etsEmissionsWithinUkPort!.tn2oeqTotal!, year.withinUkPorts.n2oCo2e, 'METS berths N2O');
    // The schema refuses what METS would refuse: a ship under 5,000 GT, an IMO number of 6 digits.
    const broken = structuredClone(report);
    broken.shipParticulars[0]!.shipDetails.grossTonnage = 4_999;
    broken.shipParticulars[0]!.shipDetails.shipImoNumber = '987654';
    expect(validateAer(broken)).toBe(false);
    // A flag that is no country code is refused by our own check.
    const bad = await anna.get(`/api/facilities/${facilityId}/uk-ets/mets-report?year=2026&flag=Malta`);
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('two-letter country code');
    // 2025 has no report.
    const early = await anna.get(`/api/facilities/${facilityId}/uk-ets/mets-report?year=2025&flag=MT`);
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toContain('from 1 July 2026');
  });

  it('sends the report to METS as a job with the operator token, and audits what METS answered', async () => {
    const body = { year: 2026, flag: 'MT', companyImoNumber: '1234567', companyNature: 'ISM_COMPANY' };
    // A user who sees the ship may not send; its organization's administrator may.
    const anna = await (
      await server.as('north.anna')
    ).post(`/api/facilities/${facilityId}/uk-ets/mets-submissions`, body);
    expect(anna.statusCode).toBe(403);
    const admin = await server.as('north.admin');
    const queued = await admin.post(`/api/facilities/${facilityId}/uk-ets/mets-submissions`, body);
    expect(queued.statusCode, queued.body).toBe(202);
    await server.services.queue!.drained(undefined, { timeoutMs: 60_000 });
    expect(received).toHaveLength(1);
    const sent = received[0]!;
    expect([sent.method, sent.url, sent.authorization]).toEqual([
      'PUT',
      '/maritime/api/external/v1.0/accounts/1234567/aer/2026',
      'Bearer token-of-the-operator',
    ]);
    expect(validateAer(sent.body), schemaErrors()).toBe(true);
    const audit = async () =>
      (
        await db()
          .selectFrom('audit_log')
          .select(['action', 'subject', 'detail'])
          .where('action', 'like', 'uk-ets.%')
          .orderBy('id')
          .execute()
      ).map((r) => ({ action: r.action, subject: r.subject, detail: r.detail as Record<string, unknown> }));
    expect((await audit()).map((a) => a.action)).toEqual(['uk-ets.mets-send', 'uk-ets.mets-sent']);
    expect(JSON.stringify(await audit())).not.toContain('token-of-the-operator');

    // METS refuses (its business validation): the refusal and its reason are audited, and not retried.
    metsAnswer = {
      status: 400,
      body: JSON.stringify({ code: 'AER1004', message: 'Business validation error', data: [] }),
    };
    const again = await admin.post(`/api/facilities/${facilityId}/uk-ets/mets-submissions`, body);
    expect(again.statusCode, again.body).toBe(202);
    await server.services.queue!.drained(undefined, { timeoutMs: 60_000 });
    expect(received).toHaveLength(2);
    const last = (await audit()).at(-1)!;
    expect(last.action).toBe('uk-ets.mets-refused');
    expect(last.subject).toBe(facilityId);
    expect(String(last.detail.answer)).toContain('AER1004');
    metsAnswer = { status: 204, body: '' };
  });

  it('sends nothing while sending to METS is off, which it is unless configured', async () => {
    const defaults = loadConfig({ PUBLIC_URL: 'http://localhost:1' } as NodeJS.ProcessEnv, []);
    expect([defaults.METS_SEND, defaults.METS_API_URL, defaults.METS_API_TOKEN]).toEqual([
      false,
      undefined,
      undefined,
    ]);
    expect(() =>
      loadConfig({ PUBLIC_URL: 'http://localhost:1', METS_SEND: 'on' } as NodeJS.ProcessEnv, []),
    ).toThrow(/METS_API_URL and METS_API_TOKEN/);
    // This server's setting turned off, as a server without it has it.
    server.services.config.METS_SEND = false;
    try {
      const before = received.length;
      const answer = await (
        await server.as('north.admin')
      ).post(`/api/facilities/${facilityId}/uk-ets/mets-submissions`, {
        year: 2026,
        flag: 'MT',
        companyImoNumber: '1234567',
      });
      expect(answer.statusCode).toBe(409);
      expect(answer.json().message).toContain('Sending to METS is turned off');
      expect(received).toHaveLength(before);
    } finally {
      server.services.config.METS_SEND = true;
    }
  });

  it('exports the voyages and fuel as an OVD log abstract: arrivals and departures with fuel since the last event', async () => {
    const anna = await server.as('north.anna');
    const csv = await anna.get(`/api/facilities/${facilityId}/ovd-log-abstract?year=2026&format=csv`);
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const [header, ...lines] = csv.body.trim().split('\r\n');
    const columns = header!.split(',');
    expect(columns.slice(0, 6)).toEqual(['IMO', 'Date_UTC', 'Time_UTC', 'Voyage_From', 'Voyage_To', 'Event']);
    expect(columns).toEqual(
      expect.arrayContaining([
        'ME_Consumption_HFO',
        'AE_Consumption_HFO',
        'AE_Consumption_MGO',
        'Boiler_Consumption_MGO',
      ]),
    );
    const records = lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [columns[i]!, v])));
    // Liverpool's call began with the data: no arrival; then departure, arrival and departure at Heysham, Belfast.
    expect(records.map((r) => [r.Event, r.Voyage_From, r.Voyage_To])).toEqual([
      ['Departure', 'GBLIV', 'GBHYM'],
      ['Arrival', 'GBLIV', 'GBHYM'],
      ['Departure', 'GBHYM', 'GBBEL'],
      ['Arrival', 'GBHYM', 'GBBEL'],
      ['Departure', 'GBBEL', ''],
    ]);
    const arrival = records[1]!;
    const leg = expected.legs[1]!;
    expect(`${arrival.Date_UTC}T${arrival.Time_UTC}`).toBe(new Date(leg.end).toISOString().slice(0, 16));
    within(Number(arrival.Distance), leg.nm, 'OVD distance Liverpool - Heysham');
    within(Number(arrival.ME_Consumption_HFO), leg.fuel.get('MAIN_ENGINE|HFO')!.kg / 1000, 'OVD ME HFO');
    within(Number(arrival.Time_Since_Previous_Report), (leg.end - leg.start) / HOUR, 'OVD hours');
    expect([
      arrival.IMO,
      arrival.Latitude_Degree,
      arrival.Latitude_North_South,
      arrival.Longitude_East_West,
    ]).toEqual(['9876543', '54', 'N', 'W']);
    const token = await server.tokenFor('north.anna');
    const xlsx = await server.app.inject({
      method: 'GET',
      url: `/api/facilities/${facilityId}/ovd-log-abstract?year=2026&format=xlsx`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(xlsx.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Log abstract')!;
    expect(sheet.getRow(1).values).toEqual([undefined, ...columns]);
    expect(sheet.rowCount).toBe(records.length + 1);
    expect(typeof sheet.getRow(3).getCell(columns.indexOf('Distance') + 1).value).toBe('number');
  });
});
