import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import type {
  CiiResult,
  DcsReportRecord,
  FleetCii,
  Bdn,
  FuelByPeriod,
  PortCallRecord,
  ReconciliationResult,
  TankSounding,
  Voyage,
} from '@portal/contracts/carbon';
import { startTestServer, type TestServer } from './harness';
import { mapLedgerChannels, portsNearRoute } from './carbon-ship';
import { createCsvDataSource, sendFile } from './upload-helpers';
import { waitForExecutions } from './execution-fixtures';
import { seedDefaultMeasurementCalculations } from '../src/features/calculations/seed';
import {
  DAY,
  HOUR,
  T0,
  BAY_ANCHORAGE,
  CF,
  DWT,
  GT,
  dayFiles,
  expectedLedger,
  gcNm,
  generateMonth,
  type ExpectedPort,
  type FlowSpec,
} from './carbon-month';

/**
 * The carbon ledger's correctness (issue 31): a month of a bulk carrier (carbon-month.ts) uploaded day by day through
 * the real upload route, each upload executed on the job queue as it comes (the default calculations, the engine's
 * step "port calls and voyages" against the shipped UN/LOCODE reference), compared with the ledger computed in the
 * test straight from DOMAIN.md's definitions: times exactly (they are sample times), sums within 0.01 %.
 * Re-executing a day in the middle changes nothing: same ids, same rows.
 */
let server: TestServer;
let facilityId: string;
let dataSourceId: string;
const channelIds: Record<string, string> = {};
/** The data file of each day uploaded. */
const fileIds: string[] = [];
const { rows, gaps } = generateMonth();
const TOLERANCE = 1e-4;

const db = () => server.services.database.db;
const iso = (t: number) => new Date(t).toISOString();
const within = (actual: number, expected: number, what: string) =>
  expect(Math.abs(actual - expected), `${what}: ${actual} against ${expected}`).toBeLessThanOrEqual(
    Math.abs(expected) * TOLERANCE + 1e-9,
  );

/**
 * The flows as the ship's channel mapping has them: the main engines on HFO; the auxiliary engines' fuel from the
 * fuel type channel AE_FUEL_TYPE (MGO at EU berths, HFO elsewhere); the boiler on MGO.
 */
const FLOWS: FlowSpec[] = [
  { consumer: 'MAIN_ENGINE', value: (r) => r.me, fuel: () => 'HFO' },
  { consumer: 'AUX_ENGINE', value: (r) => r.ae, fuel: (r) => (r.aeFuel === 2 ? 'MDO_MGO' : 'HFO') },
  { consumer: 'BOILER', value: (r) => r.boiler, fuel: () => 'MDO_MGO' },
];

async function ledgerSnapshot() {
  const rowsOf = async (table: 'port_calls' | 'voyages' | 'ledger_segments') =>
    (await db().selectFrom(table).selectAll().where('facility_id', '=', facilityId).execute())
      .map((r) => JSON.stringify(r))
      .sort();
  return {
    calls: await rowsOf('port_calls'),
    voyages: await rowsOf('voyages'),
    segments: await rowsOf('ledger_segments'),
    callFuel: (await db().selectFrom('port_call_fuel').selectAll().execute())
      .map((r) => JSON.stringify(r))
      .sort(),
    voyageFuel: (await db().selectFrom('voyage_fuel').selectAll().execute())
      .map((r) => JSON.stringify(r))
      .sort(),
  };
}

beforeAll(async () => {
  server = await startTestServer({ jobs: 'work' });
  facilityId = server.seed.facilityIds.baltic_tern!;
  dataSourceId = await createCsvDataSource(server, facilityId);
  Object.assign(channelIds, await mapLedgerChannels(server, dataSourceId));
  await seedDefaultMeasurementCalculations(db(), facilityId, new Date(T0));
  // The particulars the CII needs, as the ship's details hold them.
  await db()
    .updateTable('facilities')
    .set({ ship_type: 'BULK_CARRIER', deadweight_tonnes: DWT, gross_tonnage: GT, imo: '9876543' })
    .where('id', '=', facilityId)
    .execute();
  // Day by day through the upload route: each upload queues (or joins) the execution of its day.
  const executions = new Set<string>();
  for (const file of dayFiles(rows)) {
    const response = await sendFile(
      server,
      'north.admin',
      'POST',
      `/api/algorithm/facilitydatasource/${dataSourceId}/file`,
      file.fileName,
      file.content,
    );
    if (response.statusCode !== 200) throw new Error(`${file.fileName}: ${response.body}`);
    const answer = response.json() as {
      ids: string[];
      errorMessages: string[];
      execution: { id: string } | null;
    };
    if (answer.errorMessages.length) throw new Error(answer.errorMessages.join('; '));
    fileIds.push(...answer.ids);
    if (answer.execution) executions.add(answer.execution.id);
  }
  const done = await waitForExecutions(db(), [...executions], 600_000);
  const failed = done.filter((e) => e.state !== 'done');
  if (failed.length) throw new Error(`executions failed: ${failed.map((e) => e.error).join('; ')}`);
  await server.services.queue!.drained(undefined, { timeoutMs: 600_000 });
}, 900_000);

afterAll(async () => {
  await server?.close();
});

describe('the carbon ledger of a month of a bulk carrier, uploaded and executed day by day', () => {
  let expected: ReturnType<typeof expectedLedger>;
  let ports: ExpectedPort[];
  beforeAll(async () => {
    ports = await portsNearRoute(db(), rows);
    expected = expectedLedger(rows, ports, FLOWS);
  });

  it('is what it says: three real ports, a drift and an anchorage outside every port, two gaps of rows', () => {
    expect(expected.calls.map((c) => c.locode)).toEqual(['DEHAM', 'NLRTM', 'USBAL']);
    for (const mode of ['drift', 'anchor'] as const)
      for (const r of rows.filter((x) => x.mode === mode))
        for (const p of ports) expect(gcNm([r.lat, r.lon], [p.lat, p.lon])).toBeGreaterThan(5);
    expect(rows.filter((r) => r.mode === 'anchor')).toHaveLength(18 * 60);
    expect(gaps).toHaveLength(2);
  });

  it('derives the port calls at their ports, arrival and departure exactly', async () => {
    const answer = await (await server.as('north.anna')).get(`/api/facilities/${facilityId}/port-calls`);
    expect(answer.statusCode, answer.body).toBe(200);
    const calls = answer.json() as PortCallRecord[];
    expect(calls.map((c) => [c.portId, c.arrival, c.departure])).toEqual(
      expected.calls.map((c) => [c.locode, iso(c.arrival), iso(c.departure)]),
    );
    expect(calls.map((c) => c.portName)).toEqual(['Hamburg', 'Rotterdam', 'Baltimore']);
    expect(calls.map((c) => c.country)).toEqual(['DE', 'NL', 'US']);
    // The ship was at Hamburg when its data begins; the gap at Rotterdam is inside the call.
    expect(calls.map((c) => [c.openStart, c.openEnd])).toEqual([
      [true, false],
      [false, false],
      [false, false],
    ]);
    within(calls[1]!.gapHours, (gaps[0][1] + 60_000) / HOUR, 'the gap at Rotterdam');
  });

  it('cuts the month into voyages from call to call, with distance, hours and fuel per consumer and type', async () => {
    const answer = await (await server.as('north.anna')).get(`/api/facilities/${facilityId}/voyages`);
    expect(answer.statusCode, answer.body).toBe(200);
    const voyages = answer.json() as Voyage[];
    const legs = expected.legs.filter((l) => l.kind === 'voyage');
    expect(
      voyages.map((v) => [v.from?.portId ?? null, v.to?.portId ?? null, v.departure, v.arrival]),
    ).toEqual([
      ['DEHAM', 'NLRTM', iso(legs[0]!.start), iso(legs[0]!.end)],
      ['NLRTM', 'USBAL', iso(legs[1]!.start), iso(legs[1]!.end)],
      ['USBAL', null, iso(legs[2]!.start), iso(legs[2]!.end)],
    ]);
    voyages.forEach((v, i) => {
      const leg = legs[i]!;
      within(v.distanceNm, leg.nm, `voyage ${i} distance`);
      within(v.hoursUnderWay, leg.underWay, `voyage ${i} hours under way`);
      within(v.hoursNotUnderWay, leg.notUnderWay, `voyage ${i} hours not under way`);
      expect(v.fuel.map((f) => `${f.consumer}|${f.fuelType}`).sort()).toEqual([...leg.fuel.keys()].sort());
      for (const f of v.fuel) {
        const e = leg.fuel.get(`${f.consumer}|${f.fuelType}`)!;
        within(f.tonnes, e.kg / 1000, `voyage ${i} ${f.consumer} ${f.fuelType}`);
        within(
          f.tonnesNotUnderWay,
          e.notUnderWay / 1000,
          `voyage ${i} ${f.consumer} ${f.fuelType} not under way`,
        );
      }
    });
    // The drift and the anchorage are in the voyage to Baltimore, not under way.
    expect(voyages[1]!.hoursNotUnderWay).toBeGreaterThan(14 + 18 - 1);
    // One voyage with its fuel.
    const one = await (await server.as('north.anna')).get(`/api/voyages/${voyages[1]!.id}`);
    expect(one.json()).toEqual(voyages[1]);
  });

  it('gives each call its fuel at berth, and the month its fuel per consumer and type', async () => {
    const anna = await server.as('north.anna');
    const calls = (await anna.get(`/api/facilities/${facilityId}/port-calls`)).json() as PortCallRecord[];
    const stays = expected.legs.filter((l) => l.kind === 'stay');
    calls.forEach((c, i) => {
      for (const f of c.fuel)
        within(f.tonnes, stays[i]!.fuel.get(`${f.consumer}|${f.fuelType}`)!.kg / 1000, c.portId);
    });
    const month = (
      await anna.get(`/api/facilities/${facilityId}/fuel?from=2026-03-01&to=2026-03-31`)
    ).json() as FuelByPeriod;
    const sum = (key: string) => expected.legs.reduce((s, l) => s + (l.fuel.get(key)?.kg ?? 0), 0) / 1000;
    for (const f of month.fuel) within(f.tonnes, sum(`${f.consumer}|${f.fuelType}`), `month ${f.consumer}`);
    within(
      month.distanceNm,
      expected.legs.reduce((s, l) => s + l.nm, 0),
      'month distance',
    );
    expect(month.hoursWithoutFuelData).toEqual({
      [channelIds.FUEL_FLOW!]: expected.hoursWithoutData.get('MAIN_ENGINE'),
      [channelIds.AE_FUEL_FLOW!]: expected.hoursWithoutData.get('AUX_ENGINE'),
      [channelIds.BOILER_FUEL_FLOW!]: expected.hoursWithoutData.get('BOILER'),
    });
    // CO2 under the IMO's Cf of each fuel type: nothing is of unknown type.
    within(
      month.co2Tonnes,
      month.fuel.reduce((s, f) => s + f.tonnes * CF[f.fuelType as keyof typeof CF], 0),
      'month CO2',
    );
    expect(month.fuelOfUnknownTypeTonnes).toBe(0);
    expect(month.fuel.map((f) => `${f.consumer} ${f.fuelType}`)).toEqual([
      'MAIN_ENGINE HFO',
      'AUX_ENGINE HFO',
      'AUX_ENGINE MDO_MGO',
      'BOILER MDO_MGO',
    ]);
  });

  it('fills the IMO DCS items of the year from the voyages and their cargo, and names what is missing', async () => {
    const anna = await server.as('north.anna');
    const voyages = (await anna.get(`/api/facilities/${facilityId}/voyages`)).json() as Voyage[];
    // The voyage to Baltimore laden with 70,000 t, entered; the one to Rotterdam in ballast, from a noon report.
    const laden = await anna.put(`/api/voyages/${voyages[1]!.id}/cargo`, {
      laden: true,
      cargoTonnes: 70_000,
      teu: null,
    });
    expect(laden.statusCode, laden.body).toBe(200);
    expect((laden.json() as Voyage).cargo).toEqual({
      laden: true,
      cargoTonnes: 70_000,
      teu: null,
      source: 'ENTERED',
    });
    const noon = await anna.post(`/api/facilities/${facilityId}/noon-reports`, {
      csv: `Date,Condition,Cargo (t)\n${iso(Date.parse(voyages[0]!.departure) + 3 * HOUR)},Ballast,0\n${iso(Date.parse(voyages[1]!.departure) + 5 * HOUR)},Laden,69000\n2020-01-01 12:00,Laden,1\n`,
    });
    expect(noon.json()).toEqual({
      rows: 3,
      voyagesUpdated: 1,
      problems: [
        { line: 3, message: 'The cargo of this voyage was entered by a person and is kept' },
        { line: 4, message: 'No voyage of the ship was under way at that time' },
      ],
    });

    const report = (
      await anna.get(`/api/facilities/${facilityId}/dcs-report?year=2026`)
    ).json() as DcsReportRecord;
    expect([report.periodStart, report.periodEnd]).toEqual(['2026-03-01', '2026-03-31']);
    expect(report.imoNumber).toBe('9876543');
    expect([report.shipType, report.deadweight, report.grossTonnage]).toEqual(['Bulk carrier', DWT, GT]);
    const legs = expected.legs;
    within(
      report.distanceNm,
      legs.reduce((s, l) => s + l.nm, 0),
      'DCS distance',
    );
    within(
      report.hoursUnderWay,
      legs.reduce((s, l) => s + l.underWay, 0),
      'DCS hours under way',
    );
    const total = (suffix: string, part: 'kg' | 'notUnderWay' = 'kg') =>
      legs.reduce(
        (s, l) => s + [...l.fuel].filter(([k]) => k.endsWith(suffix)).reduce((x, [, v]) => x + v[part], 0),
        0,
      ) / 1000;
    for (const f of report.fuel) within(f.tonnes, total(`|${f.fuelType}`), `DCS ${f.fuelType}`);
    expect(report.fuel.map((f) => f.fuelType)).toEqual(['HFO', 'MDO_MGO']);
    for (const f of report.fuelByConsumer)
      within(f.tonnes, total(`${f.consumer}|${f.fuelType}`), `DCS ${f.consumer} ${f.fuelType}`);
    for (const f of report.fuelNotUnderWay)
      within(f.tonnes, total(`${f.consumer}|${f.fuelType}`, 'notUnderWay'), `not under way ${f.consumer}`);
    const toBaltimore = legs.filter((l) => l.kind === 'voyage')[1]!;
    within(report.ladenDistanceNm!, toBaltimore.nm, 'laden distance');
    within(report.transportWorkTonneMiles!, 70_000 * toBaltimore.nm, 'transport work');
    expect(report.transportWorkTeuMiles).toBeNull();
    expect(report.method).toBe('FLOW_METERS');
    expect(report.missing.map((m) => m.item).sort()).toEqual(
      [
        'Net tonnage',
        'Power output of main engines',
        'Power output of auxiliary engines',
        'Fuel oil consumption',
        'Fuel oil consumption',
        'Fuel oil consumption',
        'Laden distance travelled and transport work',
        'Onshore power supplied',
      ].sort(),
    );
    expect(report.missing.find((m) => m.reason.startsWith('FUEL_FLOW'))!.reason).toContain(
      `${expected.hoursWithoutData.get('MAIN_ENGINE')} h`,
    );
    // The voyage still at sea has no cargo yet.
    expect(report.missing.find((m) => m.item.startsWith('Laden'))!.reason).toContain('1 voyage(s)');
  });

  it('exports the DCS report as .xlsx (dates as dates, numbers as numbers) and as CSV', async () => {
    const anna = await server.as('north.anna');
    const report = (
      await anna.get(`/api/facilities/${facilityId}/dcs-report?year=2026`)
    ).json() as DcsReportRecord;
    const token = await server.tokenFor('north.anna');
    const xlsx = await server.app.inject({
      method: 'GET',
      url: `/api/facilities/${facilityId}/dcs-report/export?year=2026&format=xlsx`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-disposition']).toContain('IMO_DCS_2026.xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('IMO DCS')!;
    const byItem = new Map<string, ExcelJS.CellValue>();
    sheet.eachRow((row) => byItem.set(String(row.getCell(2).value), row.getCell(3).value));
    const start = byItem.get('Period of calendar year for the data submitted: start date');
    expect(start).toBeInstanceOf(Date);
    expect((start as Date).toISOString()).toBe('2026-03-01T00:00:00.000Z');
    expect(byItem.get('Distance travelled (over ground)')).toBe(report.distanceNm);
    expect(byItem.get('Fuel oil consumption: Heavy fuel oil (HFO)')).toBe(report.fuel[0]!.tonnes);
    expect(typeof byItem.get('Transport work')).toBe('number');
    expect(byItem.get('IMO number')).toBe('9876543');
    expect(workbook.getWorksheet('Not in the data')!.rowCount).toBe(report.missing.length + 1);

    const csv = await server.app.inject({
      method: 'GET',
      url: `/api/facilities/${facilityId}/dcs-report/export?year=2026&format=csv`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body).toContain(`11,Distance travelled (over ground),${report.distanceNm},nm`);
    expect(csv.body).toContain(
      '2.1,Period of calendar year for the data submitted: start date,2026-03-01,dd/mm/yyyy',
    );
  });

  it("rates the attained CII against 2026's required line, with its trajectory and the scrubber's part", async () => {
    const anna = await server.as('north.anna');
    const cii = (await anna.get(`/api/facilities/${facilityId}/cii?year=2026`)).json() as CiiResult;
    const co2g = expected.legs.reduce(
      (s, l) =>
        s + [...l.fuel].reduce((x, [k, v]) => x + v.kg * 1000 * CF[k.split('|')[1] as keyof typeof CF], 0),
      0,
    );
    const distance = expected.legs.reduce((s, l) => s + l.nm, 0);
    const attained = co2g / (DWT * distance);
    const required = (1 - 11 / 100) * 4745 * DWT ** -0.622;
    const ratio = attained / required;
    const rating = ratio < 0.86 ? 'A' : ratio < 0.94 ? 'B' : ratio < 1.06 ? 'C' : ratio < 1.18 ? 'D' : 'E';
    within(cii.attained!, attained, 'attained CII');
    within(cii.required!, required, 'required CII');
    expect(cii.rating).toBe(rating);
    expect(cii.z).toBe(11);
    // One month of data: the trend is the month itself, the year end projects the same intensity.
    within(cii.projectedAttained!, attained, 'projected CII');
    expect(cii.projectedRating).toBe(rating);
    expect(cii.trajectory.map((t) => [t.year, t.z])).toEqual([
      [2026, 11],
      [2027, 13.625],
      [2028, 16.25],
      [2029, 18.875],
      [2030, 21.5],
    ]);
    // The scrubber's fuel (SCRUBBER_POWER x 200 g/kWh, hourly as the dashboard) burns the auxiliary engines' fuel.
    expect(cii.scrubberShare!).toBeGreaterThan(0.005);
    expect(cii.scrubberShare!).toBeLessThan(0.1);
    expect(cii.missing).toBeNull();
    expect(cii.fuelOfUnknownTypeTonnes).toBe(0);

    const fleet = (await anna.get('/api/cii/fleet?year=2026')).json() as FleetCii;
    const row = fleet.ships.find((s) => s.shipId === facilityId)!;
    expect(row).toMatchObject({ rating, projectedRating: rating, missing: null });
    within(row.attained!, attained, 'fleet card attained');
    // Ships without a rating come after the rated ones.
    expect(fleet.ships[0]!.shipId).toBe(facilityId);
  });

  it('reconciles the month: bunker delivery notes in the record book and tank soundings against the flow meters', async () => {
    const anna = await server.as('north.anna');
    const month = (
      await anna.get(`/api/facilities/${facilityId}/fuel?from=2026-03-01&to=2026-03-31`)
    ).json() as FuelByPeriod;
    const hfo = month.fuel.filter((f) => f.fuelType === 'HFO').reduce((s, f) => s + f.tonnes, 0);
    // 800 t of HFO at Rotterdam; ROB 300 t on 1 March and 1 April plus what makes the meters read 2 % over.
    const robEnd = 300 + 800 - hfo / 1.02;
    const note = await anna.post(`/api/facilities/${facilityId}/bunker-notes`, {
      deliveredAt: '2026-03-04T10:00:00Z',
      portId: 'NLRTM',
      portName: null,
      fuelType: 'HFO',
      massTonnes: 800,
      sulfurPercent: 2.7,
      lcvMjPerKg: 40.2,
      densityKgM3: 985,
      bdnNumber: 'RTM-2026-0312',
    });
    expect(note.statusCode, note.body).toBe(201);
    const bdn = note.json() as Bdn;
    expect(bdn).toMatchObject({ portName: 'Rotterdam', massTonnes: 800, enteredBy: 'north.anna' });
    for (const [at, rob] of [
      ['2026-03-01T06:00:00Z', 300],
      ['2026-04-01T02:00:00Z', robEnd],
    ] as const) {
      const sounding = await anna.post(`/api/facilities/${facilityId}/tank-soundings`, {
        at,
        fuelType: 'HFO',
        robTonnes: rob,
      });
      expect(sounding.statusCode, sounding.body).toBe(201);
    }
    const mgoStart = (
      await anna.post(`/api/facilities/${facilityId}/tank-soundings`, {
        at: '2026-02-28T20:00:00Z',
        fuelType: 'MDO_MGO',
        robTonnes: 120,
      })
    ).json() as TankSounding;
    const reconcile = async () =>
      (
        await anna.get(`/api/facilities/${facilityId}/reconciliation?from=2026-03-01&to=2026-03-31`)
      ).json() as ReconciliationResult;
    let result = await reconcile();
    const hfoRow = result.rows.find((r) => r.fuelType === 'HFO')!;
    within(hfoRow.flowMeterTonnes, hfo, 'HFO by the meters');
    within(hfoRow.bdnTonnes!, 300 + 800 - robEnd, 'HFO by the notes and soundings');
    within(hfoRow.differencePercent!, 2, 'difference');
    expect(hfoRow.flagged).toBe(false);
    expect(result.rows.find((r) => r.fuelType === 'MDO_MGO')).toMatchObject({
      robStartTonnes: 120,
      bdnTonnes: null,
      missing: ['robEnd'],
      flagged: false,
    });

    // The note corrected to 700 t: the meters now read above the notes by more than 5 %, flagged.
    const changed = await anna.put(`/api/bunker-notes/${bdn.id}`, { ...bdn, massTonnes: 700 });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((changed.json() as Bdn).recordBookEntryId).not.toBe(bdn.recordBookEntryId);
    result = await reconcile();
    const corrected = result.rows.find((r) => r.fuelType === 'HFO')!;
    within(
      corrected.differencePercent!,
      ((hfo - (300 + 700 - robEnd)) / (300 + 700 - robEnd)) * 100,
      'corrected',
    );
    expect(corrected.flagged).toBe(true);
    expect(result.total.flagged).toBe(true);

    // Withdrawn: nothing bunkered in the period any more; the MGO sounding removed.
    expect((await anna.delete(`/api/bunker-notes/${bdn.id}`)).statusCode).toBe(204);
    expect((await anna.delete(`/api/tank-soundings/${mgoStart.id}`)).statusCode).toBe(204);
    result = await reconcile();
    expect(result.rows.find((r) => r.fuelType === 'HFO')!.bunkeredTonnes).toBe(0);
    expect(result.rows.find((r) => r.fuelType === 'MDO_MGO')!.robStartTonnes).toBeNull();
    expect((await anna.get(`/api/facilities/${facilityId}/bunker-notes`)).json()).toEqual([]);
    expect((await anna.get(`/api/bunker-notes/${bdn.id}`)).statusCode).toBe(404);

    // The record book holds the note, its correction and its withdrawal, each naming the entry it corrects.
    const book = (await anna.get(`/api/facilities/${facilityId}/record-book`)).json() as {
      id: string;
      kind: string;
      correctsId: string | null;
      text: string;
    }[];
    const entries = book.filter((e) => e.text.includes('RTM-2026-0312'));
    expect(entries.map((e) => e.kind)).toEqual(['bunkering', 'correction', 'correction']);
    expect(entries[0]!.text).toBe(
      'Bunker delivery note RTM-2026-0312: 800 t Heavy fuel oil (HFO), 2.7 % m/m sulfur, LCV 40.2 MJ/kg, density 985 kg/m³ at Rotterdam',
    );
    expect(entries[1]!.correctsId).toBe(entries[0]!.id);
    expect(entries[2]!.correctsId).toBe(entries[1]!.id);
    expect((await anna.get(`/api/facilities/${facilityId}/record-book/verify`)).json()).toMatchObject({
      valid: true,
    });
    // Each change audited.
    const audited = await db()
      .selectFrom('audit_log')
      .select('action')
      .where('action', 'like', 'carbon.%')
      .orderBy('id')
      .execute();
    expect(audited.map((a) => a.action)).toEqual(
      expect.arrayContaining([
        'carbon.bdn.add',
        'carbon.sounding.add',
        'carbon.bdn.change',
        'carbon.bdn.remove',
        'carbon.sounding.remove',
        'carbon.cargo.set',
        'carbon.cargo.import',
      ]),
    );
  });

  const executeDay = async (n: number) => {
    const admin = await server.as('admin');
    const day = T0 + n * DAY;
    const response = await admin.post('/api/algorithm/calculations/measurement-field/execute', {
      facilityId,
      from: iso(day),
      to: iso(day + DAY - 1),
      facilityDataSourceFileIds: [fileIds[n]!],
    });
    expect(response.statusCode, response.body).toBe(202);
    const [done] = await waitForExecutions(db(), [response.json().id as string], 120_000);
    expect(done!.state).toBe('done');
    await server.services.queue!.drained();
  };

  it('changes nothing when a day in the middle is executed again: same ids, same rows', async () => {
    const before = await ledgerSnapshot();
    expect(before.calls).toHaveLength(3);
    // Day 12 is at sea on the voyage to Baltimore, whose sums cover the days around it.
    await executeDay(12);
    expect(await ledgerSnapshot()).toEqual(before);
    // And it is derived again, not skipped: a piece of that day spoiled behind the engine's back is put right.
    const day12 = new Date(T0 + 12 * DAY).toISOString().slice(0, 10);
    await db()
      .updateTable('ledger_segments')
      .set({ distance_nm: 0 })
      .where('facility_id', '=', facilityId)
      .where('day', '=', day12)
      .execute();
    await executeDay(12);
    expect(await ledgerSnapshot()).toEqual(before);
  });

  it('derives the calls again when the organization adds a port, and again when it removes it', async () => {
    const before = await ledgerSnapshot();
    const withoutTimes = (snapshot: Awaited<ReturnType<typeof ledgerSnapshot>>) =>
      Object.fromEntries(
        Object.entries(snapshot).map(([k, v]) => [k, v.map((r) => r.replace(/"derived_on":"[^"]*"/, ''))]),
      );
    const admin = await server.as('north.admin');
    const organizationId = server.seed.organizationIds.north!;
    const created = await admin.post(`/api/organizations/${organizationId}/ports`, {
      name: 'Chesapeake anchorage',
      country: 'US',
      lat: BAY_ANCHORAGE[0],
      lon: BAY_ANCHORAGE[1],
      radiusNm: 5,
    });
    expect(created.statusCode, created.body).toBe(201);
    const portId = created.json().id as string;
    await server.services.queue!.drained(undefined, { timeoutMs: 120_000 });

    const anna = await server.as('north.anna');
    const calls = (await anna.get(`/api/facilities/${facilityId}/port-calls`)).json() as PortCallRecord[];
    const withAnchorage = expectedLedger(
      rows,
      [...ports, { locode: `org:${portId}`, lat: BAY_ANCHORAGE[0], lon: BAY_ANCHORAGE[1] }],
      FLOWS,
    );
    expect(calls.map((c) => [c.portId, c.arrival, c.departure])).toEqual(
      withAnchorage.calls.map((c) => [c.locode, iso(c.arrival), iso(c.departure)]),
    );
    expect(calls.map((c) => c.portName)).toEqual([
      'Hamburg',
      'Rotterdam',
      'Chesapeake anchorage',
      'Baltimore',
    ]);
    // The calls that did not change kept their ids.
    const idsBefore = before.calls.map((c) => (JSON.parse(c) as { id: string }).id);
    for (const c of calls.filter((x) => x.portId !== `org:${portId}`)) expect(idsBefore).toContain(c.id);
    const voyages = (await anna.get(`/api/facilities/${facilityId}/voyages`)).json() as Voyage[];
    expect(voyages.map((v) => [v.from?.portName, v.to?.portName ?? null])).toEqual([
      ['Hamburg', 'Rotterdam'],
      ['Rotterdam', 'Chesapeake anchorage'],
      ['Chesapeake anchorage', 'Baltimore'],
      ['Baltimore', null],
    ]);

    const removed = await admin.delete(`/api/organizations/${organizationId}/ports/${portId}`);
    expect(removed.statusCode, removed.body).toBe(204);
    await server.services.queue!.drained(undefined, { timeoutMs: 120_000 });
    expect(withoutTimes(await ledgerSnapshot())).toEqual(withoutTimes(before));
  });

  it("takes the boiler's fuel from the record book's change-overs once its mapping says so, and follows a correction", async () => {
    const admin = await server.as('admin');
    const anna = await server.as('north.anna');
    const channelsUrl = `/api/algorithm/facilitydatasource/${dataSourceId}/facilitydatasourcechannels`;
    const bookUrl = `/api/facilities/${facilityId}/record-book`;
    const fuelOfMonth = async () =>
      (
        await anna.get(`/api/facilities/${facilityId}/fuel?from=2026-03-01&to=2026-03-31`)
      ).json() as FuelByPeriod;
    const boilerFuel = (month: FuelByPeriod) =>
      Object.fromEntries(
        month.fuel.filter((f) => f.consumer === 'BOILER').map((f) => [f.fuelType, f.tonnes]),
      );
    const expectedBoiler = (fuelAt: (t: number) => 'MDO_MGO' | 'LFO' | 'HFO') => {
      const ledger = expectedLedger(rows, ports, [
        FLOWS[0]!,
        FLOWS[1]!,
        { consumer: 'BOILER', value: (r) => r.boiler, fuel: (r) => fuelAt(r.t) },
      ]);
      const out: Record<string, number> = {};
      for (const leg of ledger.legs)
        for (const [key, f] of leg.fuel)
          if (key.startsWith('BOILER|')) out[key.slice(7)] = (out[key.slice(7)] ?? 0) + f.kg / 1000;
      return out;
    };

    // A person's entry says which fuel only on a fuel change-over.
    const note = await anna.post(bookUrl, {
      kind: 'note',
      occurredOn: iso(T0 + 2 * DAY),
      text: 'Bunker samples sent ashore',
      fuelType: 'LFO',
    });
    expect(note.statusCode).toBe(400);
    expect(note.json().fields).toEqual({ fuelType: 'Only a fuel change-over records the fuel in use' });

    // MGO from before the data on, LFO from day 10 at 06:00 (an hour's edge).
    const switchAt = T0 + 10 * DAY + 6 * HOUR;
    const first = await anna.post(bookUrl, {
      kind: 'fuel-change-over',
      occurredOn: iso(T0 - DAY),
      text: 'Boiler on MGO',
      fuelSulfurPct: 0.08,
      fuelType: 'MDO_MGO',
    });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({
      fuelType: 'MDO_MGO',
      fuelSulfurPct: 0.08,
      text: 'Boiler on MGO (fuel of Diesel/gas oil (MDO/MGO), 0.08 % m/m sulfur from then on)',
    });
    const second = await anna.post(bookUrl, {
      kind: 'fuel-change-over',
      occurredOn: iso(switchAt),
      text: 'Boiler changed over to LFO',
      fuelSulfurPct: 0.1,
      fuelType: 'LFO',
    });
    expect(second.statusCode, second.body).toBe(201);
    await server.services.queue!.drained(undefined, { timeoutMs: 300_000 });
    // Nothing changes while the boiler's mapping names its fuel itself.
    expect(boilerFuel(await fuelOfMonth())).toEqual({ MDO_MGO: expect.any(Number) });

    const boiler = (await (await admin.get(channelsUrl)).json()).find(
      (c: { name: string }) => c.name === 'BOILER_FUEL_FLOW',
    ) as { id: string; source: string; name: string; dataType: string; unit: string };
    const remapped = await admin.put(`${channelsUrl}/${boiler.id}`, {
      source: boiler.source,
      name: boiler.name,
      dataType: boiler.dataType,
      unit: boiler.unit,
      fuelTypeSource: 'change-overs',
      fuelType: null,
    });
    expect(remapped.statusCode, remapped.body).toBe(200);
    await server.services.queue!.drained(undefined, { timeoutMs: 300_000 });
    let month = await fuelOfMonth();
    let expectedFuel = expectedBoiler((t) => (t < switchAt ? 'MDO_MGO' : 'LFO'));
    expect(Object.keys(boilerFuel(month)).sort()).toEqual(['LFO', 'MDO_MGO']);
    for (const [fuel, tonnes] of Object.entries(boilerFuel(month)))
      within(tonnes, expectedFuel[fuel]!, `boiler ${fuel}`);
    expect(month.fuelOfUnknownTypeTonnes).toBe(0);

    // The second change-over corrected: it was HFO. The ledger follows the correction, not the corrected entry.
    const correction = await anna.post(bookUrl, {
      kind: 'correction',
      correctsId: second.json().id,
      occurredOn: iso(switchAt),
      text: 'Boiler changed over to HFO, not LFO',
      fuelSulfurPct: 0.1,
      fuelType: 'HFO',
    });
    expect(correction.statusCode, correction.body).toBe(201);
    await server.services.queue!.drained(undefined, { timeoutMs: 300_000 });
    month = await fuelOfMonth();
    expectedFuel = expectedBoiler((t) => (t < switchAt ? 'MDO_MGO' : 'HFO'));
    expect(Object.keys(boilerFuel(month)).sort()).toEqual(['HFO', 'MDO_MGO']);
    for (const [fuel, tonnes] of Object.entries(boilerFuel(month)))
      within(tonnes, expectedFuel[fuel]!, `boiler ${fuel} corrected`);
    const book = (await anna.get(bookUrl)).json() as { id: string; fuelType: string | null }[];
    expect(book.find((e) => e.id === correction.json().id)!.fuelType).toBe('HFO');
  });
});
