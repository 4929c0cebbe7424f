import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import type { EuCompanyYear, EuShipYear, EuaPrice } from '@portal/contracts/eu-ets';
import { startTestServer, type TestServer } from './harness';
import { mapLedgerChannels, portsNearRoute } from './carbon-ship';
import { createCsvDataSource, sendFile } from './upload-helpers';
import { waitForExecutions } from './execution-fixtures';
import { seedDefaultMeasurementCalculations } from '../src/features/calculations/seed';
import {
  CHANNELS,
  DAY,
  expectedLedger,
  generateMonth,
  type ExpectedPort,
  type FlowSpec,
  type Row,
} from './carbon-month';

/**
 * EU MRV / EU ETS correctness (issue "Step 5 of 7", EU part): Step 4's month of a bulk carrier (carbon-month.ts:
 * Hamburg -> Rotterdam, intra-EEA; Rotterdam -> Baltimore, EEA-US; berths in the EU and the US; then at sea) uploaded
 * as March 2026 on one ship and, shifted a year back, as March 2025 on another of the same company. The figures are
 * derived here from ../shared/DOMAIN.md's definitions, not with the rules of packages/contracts/src/rules/carbon:
 * gases = fuel x factors (Cf HFO 3.114, MDO/MGO 3.206; CH4 0.00005, N2O 0.00018 g/g), CO2e with CH4 28 and N2O 265;
 * in scope 100 % between two EU/EEA ports and at berth in them, 50 % between an EU/EEA port and one outside;
 * allowances = in-scope emissions x phase-in (70 % of 2025, CO2 only; 100 % from 2026, CO2e). Compared within
 * 0.01 %.
 */
let server: TestServer;
let northId: string;
const ship2026 = { id: '', rows: [] as Row[] };
const ship2025 = { id: '', rows: [] as Row[] };
const TOLERANCE = 1e-4;
/** March 2025 is 365 days before March 2026 (2025 is no leap year): the same UTC hours, a year back. */
const YEAR_BACK = 365 * DAY;

const db = () => server.services.database.db;
const within = (actual: number | null | undefined, expected: number, what: string) => {
  expect(actual, what).not.toBeNull();
  expect(Math.abs(actual! - expected), `${what}: ${actual} against ${expected}`).toBeLessThanOrEqual(
    Math.abs(expected) * TOLERANCE + 1e-9,
  );
};

/** DOMAIN.md's fuel constants (CO2 from Cf; CH4 and N2O per g of fuel) and EU MRV/ETS GWP100. */
const CF = { HFO: 3.114, MDO_MGO: 3.206 } as const;
const CH4_PER_FUEL = 0.00005;
const N2O_PER_FUEL = 0.00018;
const GWP_CH4 = 28;
const GWP_N2O = 265;
/** DOMAIN.md: the EU/EEA membership of the route's countries (Germany and the Netherlands are EU; the US is not). */
const EEA_COUNTRIES = new Set(['DE', 'NL']);

const FLOWS: FlowSpec[] = [
  { consumer: 'MAIN_ENGINE', value: (r) => r.me, fuel: () => 'HFO' },
  { consumer: 'AUX_ENGINE', value: (r) => r.ae, fuel: (r) => (r.aeFuel === 2 ? 'MDO_MGO' : 'HFO') },
  { consumer: 'BOILER', value: (r) => r.boiler, fuel: () => 'MDO_MGO' },
];

const cell = (x: number, decimals: number) => (Number.isNaN(x) ? '' : x.toFixed(decimals));
const stamp = (t: number) => new Date(t).toISOString().replace('T', ' ').slice(0, 19);

/** The month's rows as logger files of a week each (the same columns as Step 4's day files). */
function weekFiles(rows: readonly Row[], prefix: string) {
  const files: { fileName: string; content: string }[] = [];
  for (let k = 0; k * 7 * DAY < 31 * DAY; k++) {
    const from = rows[0]!.t - (rows[0]!.t % DAY) + k * 7 * DAY;
    const lines = [['Timestamp', ...CHANNELS].join(',')];
    for (const r of rows)
      if (r.t >= from && r.t < from + 7 * DAY)
        lines.push(
          [
            stamp(r.t),
            cell(r.lat, 6),
            cell(r.lon, 6),
            cell(r.sog, 2),
            cell(r.me, 2),
            cell(r.scrubberKw, 1),
            cell(r.ae, 2),
            cell(r.boiler, 2),
            String(r.aeFuel),
          ].join(','),
        );
    if (lines.length > 1)
      files.push({ fileName: `${prefix}_week${k + 1}.csv`, content: `${lines.join('\n')}\n` });
  }
  return files;
}

async function setUpShip(facilityId: string, rows: readonly Row[], prefix: string): Promise<string[]> {
  const dataSourceId = await createCsvDataSource(server, facilityId);
  const ids: Record<string, string> = {};
  Object.assign(ids, await mapLedgerChannels(server, dataSourceId));
  await seedDefaultMeasurementCalculations(db(), facilityId, new Date(rows[0]!.t));
  const executions: string[] = [];
  for (const file of weekFiles(rows, prefix)) {
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
    if (answer.execution) executions.push(answer.execution.id);
  }
  return executions;
}

interface Gases {
  co2: number;
  ch4: number;
  n2o: number;
  co2e: number;
}

/** The expected lines of a month: each leg's gases, its ports, scope and share by DOMAIN.md's rule. */
function expectedLines(rows: readonly Row[], ports: readonly ExpectedPort[]) {
  const { calls, legs } = expectedLedger(rows, ports, FLOWS);
  let call = 0;
  return legs.map((leg) => {
    const tonnes = { HFO: 0, MDO_MGO: 0 };
    for (const [key, f] of leg.fuel) tonnes[key.split('|')[1] as keyof typeof tonnes] += f.kg / 1000;
    const fuel = tonnes.HFO + tonnes.MDO_MGO;
    const co2 = tonnes.HFO * CF.HFO + tonnes.MDO_MGO * CF.MDO_MGO;
    const gases: Gases = {
      co2,
      ch4: fuel * CH4_PER_FUEL,
      n2o: fuel * N2O_PER_FUEL,
      co2e: co2 + fuel * CH4_PER_FUEL * GWP_CH4 + fuel * N2O_PER_FUEL * GWP_N2O,
    };
    const eea = (locode: string | undefined) => (locode ? EEA_COUNTRIES.has(locode.slice(0, 2)) : null);
    if (leg.kind === 'stay') {
      const port = calls[call]!.locode;
      return { kind: 'stay', from: port, to: null, gases, share: eea(port) ? 1 : 0 };
    }
    const from = calls[call]?.locode;
    const to = calls[call + 1]?.locode;
    call++;
    const a = eea(from);
    const b = eea(to);
    const share = a === null || b === null ? null : a && b ? 1 : a || b ? 0.5 : 0;
    return { kind: 'voyage', from: from ?? null, to: to ?? null, gases, share };
  });
}

beforeAll(async () => {
  server = await startTestServer({ jobs: 'work' });
  northId = server.seed.organizationIds.north!;
  ship2026.id = server.seed.facilityIds.baltic_tern!;
  ship2025.id = server.seed.facilityIds.atlantic_meridian!;
  const { rows } = generateMonth();
  ship2026.rows = rows;
  ship2025.rows = rows.map((r) => ({ ...r, t: r.t - YEAR_BACK }));
  const executions = [
    ...(await setUpShip(ship2026.id, ship2026.rows, 'march2026')),
    ...(await setUpShip(ship2025.id, ship2025.rows, 'march2025')),
  ];
  // Uploads that arrive while their ship's execution waits join it: each execution once.
  const done = await waitForExecutions(db(), [...new Set(executions)], 900_000);
  const failed = done.filter((e) => e.state !== 'done');
  if (failed.length) throw new Error(`executions failed: ${failed.map((e) => e.error).join('; ')}`);
  await server.services.queue!.drained(undefined, { timeoutMs: 900_000 });
}, 1_200_000);

afterAll(async () => {
  await server?.close();
});

describe('EU MRV / EU ETS of the month, in 2026 and a year back in 2025', () => {
  let lines2026: ReturnType<typeof expectedLines>;
  let lines2025: ReturnType<typeof expectedLines>;
  beforeAll(async () => {
    lines2026 = expectedLines(ship2026.rows, await portsNearRoute(db(), ship2026.rows));
    lines2025 = expectedLines(ship2025.rows, await portsNearRoute(db(), ship2025.rows));
  });
  const inScope = (lines: ReturnType<typeof expectedLines>, gas: keyof Gases) =>
    lines.reduce((s, l) => s + l.gases[gas] * (l.share ?? 0), 0);

  it('answers each voyage and stay at berth with its gases and its share in scope', async () => {
    const answer = await (
      await server.as('north.anna')
    ).get(`/api/facilities/${ship2026.id}/eu-ets?year=2026`);
    expect(answer.statusCode, answer.body).toBe(200);
    const year = answer.json() as EuShipYear;
    expect(
      year.lines.map((l) => [
        l.kind,
        l.from?.portId ?? null,
        l.kind === 'voyage' ? (l.to?.portId ?? null) : null,
      ]),
    ).toEqual(lines2026.map((l) => [l.kind, l.from, l.to]));
    expect(year.lines.map((l) => l.scope)).toEqual([
      'AT_BERTH_EEA',
      'INTRA_EEA',
      'AT_BERTH_EEA',
      'FROM_EEA',
      'OUTSIDE',
      'UNDETERMINED',
    ]);
    expect(year.lines.map((l) => l.share)).toEqual(lines2026.map((l) => l.share));
    year.lines.forEach((l, i) => {
      for (const gas of ['co2', 'ch4', 'n2o', 'co2e'] as const)
        within(l.gases[gas], lines2026[i]!.gases[gas], `line ${i} ${gas}`);
    });
    expect(year.lines.every((l) => !l.outermostDerogation)).toBe(true);
    expect([year.surrenderDeadline, year.emissionsReportDeadline]).toEqual(['2027-09-30', '2027-03-31']);
    expect([year.periodStart, year.periodEnd]).toEqual(['2026-03-01', '2026-03-31']);
  });

  it('derives the in-scope CO2e and the allowances of 2026: 100 %, CH4 and N2O counted', async () => {
    const year = (
      await (await server.as('north.anna')).get(`/api/facilities/${ship2026.id}/eu-ets?year=2026`)
    ).json() as EuShipYear;
    const co2e = inScope(lines2026, 'co2e');
    within(year.figures.inScope.co2e, co2e, 'in-scope CO2e 2026');
    within(year.figures.inScope.co2, inScope(lines2026, 'co2'), 'in-scope CO2 2026');
    expect(year.figures.phaseIn).toBe(1);
    within(year.figures.allowancesDue, co2e * 1, 'allowances 2026');
    // The voyage still at sea is reported apart, in no scope yet.
    within(year.figures.undetermined.co2e, lines2026.at(-1)!.gases.co2e, 'undetermined');
    // The MRV's aggregates: between EEA ports, from them, at berth in them.
    within(year.figures.byScope.INTRA_EEA.co2, lines2026[1]!.gases.co2, 'MRV intra-EEA CO2');
    within(year.figures.byScope.FROM_EEA.co2, lines2026[3]!.gases.co2, 'MRV from EEA CO2');
    within(
      year.figures.byScope.AT_BERTH_EEA.co2,
      lines2026[0]!.gases.co2 + lines2026[2]!.gases.co2,
      'MRV at berth CO2',
    );
    // Projected to the year end at the month's rate (the data's 31 days are its trailing window).
    within(year.figures.projectedAllowancesDue, co2e + (co2e / 31) * 275, 'projected allowances 2026');
    console.info(
      `EU ETS 2026: in-scope CO2e ${year.figures.inScope.co2e.toFixed(3)} t (expected ${co2e.toFixed(3)}), allowances ${year.figures.allowancesDue.toFixed(3)}, projected ${year.figures.projectedAllowancesDue.toFixed(3)}`,
    );
  });

  it('derives the allowances of 2025: 70 % of the in-scope CO2 alone', async () => {
    const year = (
      await (await server.as('north.anna')).get(`/api/facilities/${ship2025.id}/eu-ets?year=2025`)
    ).json() as EuShipYear;
    expect([year.periodStart, year.periodEnd]).toEqual(['2025-03-01', '2025-03-31']);
    const co2 = inScope(lines2025, 'co2');
    within(year.figures.inScope.co2, co2, 'in-scope CO2 2025');
    within(year.figures.inScope.co2e, inScope(lines2025, 'co2e'), 'in-scope CO2e 2025');
    expect(year.figures.phaseIn).toBe(0.7);
    within(year.figures.surrenderBasisTonnes, co2, 'surrender basis 2025');
    within(year.figures.allowancesDue, co2 * 0.7, 'allowances 2025');
    console.info(
      `EU ETS 2025: in-scope CO2 ${year.figures.inScope.co2.toFixed(3)} t (expected ${co2.toFixed(3)}), allowances ${year.figures.allowancesDue.toFixed(3)} (expected ${(co2 * 0.7).toFixed(3)})`,
    );
    expect(year.surrenderDeadline).toBe('2026-09-30');
  });

  it('turns allowances into euros at the latest price on or before the day, prices entered by the administrator', async () => {
    const admin = await server.as('north.admin');
    const anna = await server.as('north.anna');
    expect(
      (await anna.post(`/api/organizations/${northId}/eua-prices`, { on: '2026-03-15', eurPerAllowance: 70 }))
        .statusCode,
    ).toBe(403);
    const first = await admin.post(`/api/organizations/${northId}/eua-prices`, {
      on: '2026-03-15',
      eurPerAllowance: 69,
    });
    expect(first.statusCode, first.body).toBe(201);
    // The same day again replaces it.
    const replaced = await admin.post(`/api/organizations/${northId}/eua-prices`, {
      on: '2026-03-15',
      eurPerAllowance: 70,
      note: 'ICE EUA Dec-26 settlement',
    });
    expect((replaced.json() as EuaPrice).id).toBe((first.json() as EuaPrice).id);
    await admin.post(`/api/organizations/${northId}/eua-prices`, { on: '2025-06-02', eurPerAllowance: 65.5 });
    const bad = await admin.post(`/api/organizations/${northId}/eua-prices`, {
      on: '2026-03-16',
      eurPerAllowance: -3,
      note: 'a\u0000b',
    });
    expect(bad.statusCode).toBe(400);
    const prices = (await anna.get(`/api/organizations/${northId}/eua-prices`)).json() as EuaPrice[];
    expect(prices.map((p) => [p.on, p.eurPerAllowance])).toEqual([
      ['2026-03-15', 70],
      ['2025-06-02', 65.5],
    ]);

    const at = async (priceDay: string) =>
      (
        await anna.get(`/api/facilities/${ship2026.id}/eu-ets?year=2026&priceDay=${priceDay}`)
      ).json() as EuShipYear;
    const allowances = inScope(lines2026, 'co2e');
    const later = await at('2026-03-20');
    expect(later.price?.eurPerAllowance).toBe(70);
    within(later.figures.eur, allowances * 70, 'euros at 70');
    const earlier = await at('2026-03-14');
    expect(earlier.price?.on).toBe('2025-06-02');
    within(earlier.figures.eur, allowances * 65.5, 'euros at 65.5');
    const none = await at('2025-06-01');
    expect([none.price, none.figures.eur, none.figures.projectedEur]).toEqual([null, null, null]);

    const audited = await db()
      .selectFrom('audit_log')
      .select('action')
      .where('action', 'like', 'eu-ets.%')
      .execute();
    expect(audited.map((a) => a.action)).toEqual([
      'eu-ets.price.set',
      'eu-ets.price.set',
      'eu-ets.price.set',
    ]);
    // Removed by the administrator; a user may not.
    const id = prices[1]!.id;
    expect((await anna.delete(`/api/eua-prices/${id}`)).statusCode).toBe(403);
    expect((await admin.delete(`/api/eua-prices/${id}`)).statusCode).toBe(204);
    expect(((await anna.get(`/api/organizations/${northId}/eua-prices`)).json() as EuaPrice[]).length).toBe(
      1,
    );
  });

  it("sums the company's ships per year", async () => {
    const anna = await server.as('north.anna');
    const company = async (year: number) =>
      (
        await anna.get(`/api/organizations/${northId}/eu-ets?year=${year}&priceDay=2026-12-31`)
      ).json() as EuCompanyYear;
    const y2026 = await company(2026);
    const y2025 = await company(2025);
    expect(y2026.organizationName).toBe('Nordic Bulk Carriers');
    within(y2026.figures.allowancesDue, inScope(lines2026, 'co2e'), 'company allowances 2026');
    within(y2025.figures.allowancesDue, inScope(lines2025, 'co2') * 0.7, 'company allowances 2025');
    within(y2026.figures.eur, inScope(lines2026, 'co2e') * 70, 'company euros 2026');
    const byShip = new Map(y2026.ships.map((s) => [s.shipId, s.figures.allowancesDue]));
    expect(byShip.get(ship2025.id)).toBe(0);
    within(byShip.get(ship2026.id), inScope(lines2026, 'co2e'), 'ship row 2026');
    // Another organization's aggregate is not found.
    const south = server.seed.organizationIds.south!;
    expect((await anna.get(`/api/organizations/${south}/eu-ets?year=2026`)).statusCode).toBe(404);
  });

  it('exports the emissions report and the company aggregate as .xlsx and CSV in the THETIS-MRV layout', async () => {
    const anna = await server.as('north.anna');
    const year = (
      await anna.get(`/api/facilities/${ship2026.id}/eu-ets?year=2026&priceDay=2026-12-31`)
    ).json() as EuShipYear;
    const token = await server.tokenFor('north.anna');
    const get = (url: string) =>
      server.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    const xlsx = await get(
      `/api/facilities/${ship2026.id}/eu-ets/export?year=2026&format=xlsx&priceDay=2026-12-31`,
    );
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-disposition']).toContain('EU_MRV_2026.xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const byItem = new Map<string, ExcelJS.CellValue>();
    workbook
      .getWorksheet('Emissions report')!
      .eachRow((row) => byItem.set(String(row.getCell(2).value), row.getCell(3).value));
    expect(byItem.get('Allowances due')).toBe(year.figures.allowancesDue);
    expect(byItem.get('Voyages between ports under a Member State’s jurisdiction: CO2')).toBe(
      year.figures.byScope.INTRA_EEA.co2,
    );
    expect((byItem.get('Surrender by') as Date).toISOString()).toBe('2027-09-30T00:00:00.000Z');
    expect(workbook.getWorksheet('Voyages and berths')!.rowCount).toBe(year.lines.length + 1);

    const csv = await get(`/api/facilities/${ship2026.id}/eu-ets/export?year=2026&format=csv`);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body).toContain(`C(g),Total distance travelled,${year.distanceNm},nm`);

    const company = await get(`/api/organizations/${northId}/eu-ets/export?year=2025&format=csv`);
    expect(company.statusCode).toBe(200);
    expect(company.body).toContain('Atlantic Meridian');
    expect(company.headers['content-disposition']).toContain('EU_ETS_company_2025.csv');
  });
});
