import { gunzipSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_REPORT_KPIS } from '@portal/formula';
import type { Database } from '../src/db/schema';
import { refreshDailyRollup } from '../src/storage';
import { seedReports } from '../src/features/reports/seed';
import { reportFieldValueSources } from '../src/features/reports/sources';
import { startTestServer, type TestServer } from './harness';

const HOUR = 3_600_000;

let server: TestServer;
let db: Kysely<Database>;
/** Two ships of North (Anna sees both) and one of South. */
let shipA: string;
let shipB: string;
let southShip: string;
/** The field that stores each KPI's hourly values (the value source of every field of that KPI). */
const kpiField: Record<string, string> = {};

async function fieldId(reportId: string, name: string): Promise<string> {
  const row = await db
    .selectFrom('report_fields')
    .select('id')
    .where('report_id', '=', reportId)
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Hourly values from `start`, one per hour; null is an hour without a value. */
async function insertHours(
  facilityId: string,
  reportFieldId: string,
  start: string,
  values: (number | null)[],
) {
  const t0 = new Date(start).getTime();
  await db
    .insertInto('report_values')
    .values(
      values.map((value, i) => ({
        facility_id: facilityId,
        report_field_id: reportFieldId,
        span_start: new Date(t0 + i * HOUR),
        value,
      })),
    )
    .onConflict((oc) =>
      oc
        .columns(['facility_id', 'report_field_id', 'span_start'])
        .doUpdateSet((eb) => ({ value: eb.ref('excluded.value') })),
    )
    .execute();
  await refreshDailyRollup(
    db,
    facilityId,
    [reportFieldId],
    new Date(t0),
    new Date(t0 + values.length * HOUR),
  );
}

const avg = (xs: (number | null)[]) => {
  const n = xs.filter((x): x is number => x !== null);
  return n.reduce((a, b) => a + b, 0) / n.length;
};
const sum = (xs: (number | null)[]) => xs.filter((x): x is number => x !== null).reduce((a, b) => a + b, 0);
/** Deterministic hourly values. */
const hours = (n: number, f: (i: number) => number | null) => Array.from({ length: n }, (_, i) => f(i));

// Ship A: 2024-03-01 00:00 .. 2024-03-04 23:00 (96 hours). Ship B: 10 hours on 2024-03-02.
const A_MARPOL = hours(96, (i) => (i % 7 === 0 ? null : 90 + (i % 11)));
const B_MARPOL = hours(10, (i) => 50 + i);
const A_CO2 = hours(96, (i) => 0.25 + (i % 5) * 0.01);
const B_CO2 = hours(10, () => 1.5);
const A_RATIO = hours(96, (i) => (i === 30 ? 40 : 3 + (i % 4)));
const A_LIMIT = hours(96, (i) => (i < 48 ? 4.3 : 21.7));
const A_UPTIME = hours(96, (i) => (i % 24 < 2 ? null : i % 24 === 5 ? 120 : 100));
const PERIOD = { from: '2024-03-01T12:00:00.000Z', to: '2024-03-03T23:59:59.999Z' };
// Hours of A inside PERIOD: index 12 .. 71.
const inPeriod = <T>(xs: T[]) => xs.slice(12, 72);

beforeAll(async () => {
  server = await startTestServer();
  db = server.services.database.db;
  const ships = await db
    .selectFrom('facilities')
    .select(['id', 'primary_organization_id'])
    .orderBy('name')
    .execute();
  const north = ships
    .filter((s) => s.primary_organization_id === server.seed.organizationIds.north)
    .map((s) => s.id);
  const south = ships
    .filter((s) => s.primary_organization_id === server.seed.organizationIds.south)
    .map((s) => s.id);
  // Anna is assigned every North ship; the first North ship is shared with South, so take the others.
  const shared = await db.selectFrom('organization_facility_access').select('facility_id').execute();
  const notShared = north.filter((id) => !shared.some((s) => s.facility_id === id));
  [shipA, shipB] = [notShared[0]!, notShared[1]!];
  southShip = south.find((id) => !shared.some((s) => s.facility_id === id))!;

  kpiField.MarpolCompliance = await fieldId('FacilityGroupMarpolComplianceLarge', 'ActualAverage');
  kpiField.CO2Reduction = await fieldId('FacilityGroupCO2reduction', 'ActualAverage');
  kpiField.SO2CO2Ratio = await fieldId('FacilityGroupSO2CO2Ratio', 'Values');
  kpiField.SO2CO2Limit = await fieldId('FacilityGroupSO2CO2Ratio', 'Limit');
  kpiField.OperationalAvailability = await fieldId(
    'FacilityGroupOperationalAvailabilitylarge',
    'ActualAverage',
  );

  await insertHours(shipA, kpiField.MarpolCompliance, '2024-03-01T00:00:00Z', A_MARPOL);
  await insertHours(shipB, kpiField.MarpolCompliance, '2024-03-02T00:00:00Z', B_MARPOL);
  await insertHours(
    southShip,
    kpiField.MarpolCompliance,
    '2024-03-02T00:00:00Z',
    hours(24, () => 10),
  );
  await insertHours(shipA, kpiField.CO2Reduction, '2024-03-01T00:00:00Z', A_CO2);
  await insertHours(shipB, kpiField.CO2Reduction, '2024-03-02T00:00:00Z', B_CO2);
  await insertHours(
    southShip,
    kpiField.CO2Reduction,
    '2024-03-02T00:00:00Z',
    hours(24, () => 1000),
  );
  await insertHours(shipA, kpiField.SO2CO2Ratio, '2024-03-01T00:00:00Z', A_RATIO);
  await insertHours(shipA, kpiField.SO2CO2Limit, '2024-03-01T00:00:00Z', A_LIMIT);
  await insertHours(shipA, kpiField.OperationalAvailability, '2024-03-01T00:00:00Z', A_UPTIME);
  // Data long before the period: counts for lifetime only.
  await insertHours(
    shipA,
    kpiField.MarpolCompliance,
    '2023-06-01T00:00:00Z',
    hours(24, () => 0),
  );
}, 120_000);

afterAll(async () => {
  await server?.close();
});

const query = (params: Record<string, string>) => new URLSearchParams(params).toString();

describe('report definitions', () => {
  it('lists every report of the spec with all its fields approved, for a system administrator only', async () => {
    const admin = await server.as('admin');
    const response = await admin.get('/api/algorithm/reports');
    expect(response.statusCode).toBe(200);
    const reports = response.json() as {
      id: string;
      target: string;
      approvedFieldsCount: number;
      totalFieldsCount: number;
    }[];
    // The spec's 15 and the 4 washwater reports of issue 20.
    expect(reports).toHaveLength(19);
    expect(reports.map((r) => r.id)).toEqual(
      expect.arrayContaining([
        'FacilityGroupWashwaterCompliance',
        'FacilityWashwaterCompliance',
        'FacilityWashwaterCriteria',
        'FacilityOpenLoopInNoDischargeZoneHours',
        'FacilityGroupSO2CO2Ratio',
        'FacilitySO2CO2Ratio',
        'FacilityOperationalAvailabilitylarge',
        'FacilityGroupExtraremovalofsulfur',
      ]),
    );
    for (const r of reports) {
      expect(r.totalFieldsCount).toBeGreaterThan(0);
      expect(r.approvedFieldsCount).toBe(r.totalFieldsCount);
    }
    expect(reports.find((r) => r.id === 'FacilityMarpolcompliance')!.target).toBe('Facility');
    expect(reports.find((r) => r.id === 'FacilityGroupMarpolComplianceLarge')!.target).toBe('FacilityGroup');
    expect((await (await server.as('north.admin')).get('/api/algorithm/reports')).statusCode).toBe(403);
    expect(
      (await (await server.as('north.anna')).get('/api/algorithm/reports/FacilityMarpolcompliance'))
        .statusCode,
    ).toBe(403);
  });

  it('gives a report with its fields, each with the approved default KPI algorithm reading the measurement fields it names', async () => {
    const admin = await server.as('admin');
    const report = (await admin.get('/api/algorithm/reports/FacilityMarpolcompliance')).json();
    expect(report.information).toContain('Marpol compliance');
    expect(report.fields.map((f: { name: string }) => f.name)).toEqual([
      'ActualAverage',
      'Lifetime',
      'FleetActual',
      'Values',
    ]);
    const values = report.fields.find((f: { name: string }) => f.name === 'Values');
    expect(values).toMatchObject({
      isApproved: true,
      asSeries: true,
      interfaceType: 'ComplianceValues',
      timeAggregateType: 'Average',
      unit: '%',
    });
    const kpi = DEFAULT_REPORT_KPIS.find((k) => k.key === 'MarpolCompliance')!;
    expect(values.approvedCalculation.transformAlgorithm).toBe(kpi.transformAlgorithm);
    expect(values.approvedCalculation.validFrom).toBe('2000-01-01T00:00:00.000Z');
    const compliant = await db
      .selectFrom('measurement_fields')
      .select('id')
      .where(sql`lower(name)`, '=', 'compliant')
      .executeTakeFirstOrThrow();
    expect(values.approvedCalculation.inputIds).toEqual([compliant.id]);
    expect((await admin.get('/api/algorithm/reports/NoSuchReport')).statusCode).toBe(404);
  });

  it('seeds again without adding anything', async () => {
    expect(await seedReports(db)).toEqual({ reports: 0, fields: 0, calculations: 0 });
  });

  it('shares one stored hourly series between the fields of the same calculation, until one is changed', async () => {
    const { sourceOf, computed } = await reportFieldValueSources(db);
    expect(computed).toHaveLength(DEFAULT_REPORT_KPIS.length);
    const shipMarpol = await fieldId('FacilityMarpolcompliance', 'ActualAverage');
    const shipLifetime = await fieldId('FacilityMarpolcompliance', 'Lifetime');
    expect(sourceOf.get(shipMarpol)).toBe(sourceOf.get(shipLifetime));
    const edited = await fieldId('FacilityTotalCO2Emission', 'Lifetime');
    const before = sourceOf.get(edited);
    await db
      .updateTable('report_field_calculations')
      .set({ transform_algorithm: 'return 1;' })
      .where('report_field_id', '=', edited)
      .execute();
    const after = await reportFieldValueSources(db);
    expect(after.sourceOf.get(edited)).toBe(edited);
    expect(after.sourceOf.get(edited)).not.toBe(before);
    expect(after.computed).toHaveLength(DEFAULT_REPORT_KPIS.length + 1);
    const kpi = DEFAULT_REPORT_KPIS.find((k) => k.key === 'TotalCO2Emission')!;
    await db
      .updateTable('report_field_calculations')
      .set({ transform_algorithm: kpi.transformAlgorithm })
      .where('report_field_id', '=', edited)
      .execute();
  });

  it('sanitises the information on update: script tags and attributes go, the editor formatting stays', async () => {
    const admin = await server.as('admin');
    const html =
      '<h1 onclick="x()">Title</h1><p><b>bold</b> <i>it</i> <u>u</u><script>alert(1)</script><img src=x onerror="alert(2)"></p><ul><li>a</li></ul><hr><a href="javascript:1">link</a>';
    const response = await admin.put('/api/algorithm/reports/FacilityCO2reduction/update-report', {
      information: html,
    });
    expect(response.statusCode).toBe(200);
    const information = response.json().information as string;
    expect(information).not.toMatch(/script|onclick|onerror|<img|<a|javascript/);
    expect(information).toContain('<h1>Title</h1>');
    expect(information).toContain('<b>bold</b> <i>it</i> <u>u</u>');
    expect(information).toContain('<ul><li>a</li></ul><hr />');
    const data = (
      await admin.get(`/api/reports/FacilityCO2reduction/data?${query({ ...PERIOD, facilityId: shipA })}`)
    ).json();
    expect(data.information).toBe(information);
    expect(
      (
        await (
          await server.as('north.admin')
        ).put('/api/algorithm/reports/FacilityCO2reduction/update-report', { information: 'x' })
      ).statusCode,
    ).toBe(403);
    expect(
      (await admin.put('/api/algorithm/reports/Nope/update-report', { information: 'x' })).statusCode,
    ).toBe(404);
    expect(
      (await admin.put('/api/algorithm/reports/FacilityCO2reduction/update-report', {})).statusCode,
    ).toBe(400);
  });
});

describe('report values', () => {
  it('averages the hours with a value over the period, edge hours and whole days alike', async () => {
    const anna = await server.as('north.anna');
    const response = await anna.get(
      `/api/reports/FacilityMarpolcompliance/data?${query({ ...PERIOD, facilityId: shipA })}`,
    );
    expect(response.statusCode).toBe(200);
    const { fields } = response.json();
    expect(fields.ActualAverage.value).toBeCloseTo(avg(inPeriod(A_MARPOL)), 9);
    expect(fields.ActualAverage.format).toBe('Percent');
    // Lifetime: all the ship's data, also the day in 2023.
    expect(fields.Lifetime.value).toBeCloseTo(avg([...A_MARPOL, ...hours(24, () => 0)]), 9);
    // Fleet: the average of Anna's ships (A and B), each over the period.
    expect(fields.FleetActual.value).toBeCloseTo((avg(inPeriod(A_MARPOL)) + avg(B_MARPOL)) / 2, 9);
    expect(fields.Values.value).toHaveLength(
      inPeriod(A_MARPOL).filter((v) => v !== null).length +
        inPeriod(A_MARPOL).filter((v) => v === null).length,
    );
    expect(fields.Values.value[0]).toEqual({
      complianceDate: '2024-03-01T12:00:00.000Z',
      value: A_MARPOL[12],
    });
  });

  it('counts the hours that start inside a period that is not whole days', async () => {
    const admin = await server.as('admin');
    const from = '2024-03-01T05:30:00.000Z';
    const to = '2024-03-02T07:00:00.000Z';
    const { fields } = (
      await admin.get(`/api/reports/FacilityMarpolcompliance/data?${query({ from, to, facilityId: shipA })}`)
    ).json();
    expect(fields.ActualAverage.value).toBeCloseTo(avg(A_MARPOL.slice(6, 32)), 9);
  });

  it('sums tonnes over the period and over the fleet', async () => {
    const anna = await server.as('north.anna');
    const ship = (
      await anna.get(`/api/reports/FacilityCO2reduction/data?${query({ ...PERIOD, facilityId: shipA })}`)
    ).json();
    expect(ship.fields.ActualAverage.value).toBeCloseTo(sum(inPeriod(A_CO2)), 9);
    expect(ship.fields.Lifetime.value).toBeCloseTo(sum(A_CO2), 9);
    const fleet = (
      await anna.post('/api/reports/FacilityGroupCO2reduction/data', {
        ...PERIOD,
        facilityIds: [shipA, shipB],
      })
    ).json();
    expect(fleet.fields.ActualAverage.value).toBeCloseTo(sum(inPeriod(A_CO2)) + sum(B_CO2), 9);
  });

  it('averages the ships, not their hours, over the fleet, and lists each ship', async () => {
    const admin = await server.as('admin');
    const { fields } = (
      await admin.post('/api/reports/FacilityGroupMarpolComplianceLarge/data', {
        ...PERIOD,
        facilityIds: [shipA, shipB],
      })
    ).json();
    const a = avg(inPeriod(A_MARPOL));
    const b = avg(B_MARPOL);
    expect(fields.ActualAverage.value).toBeCloseTo((a + b) / 2, 9);
    const list = fields.Facilities.value as { facilityId: string; value: number; timestamp: string }[];
    expect(list.map((i) => i.facilityId).sort()).toEqual([shipA, shipB].sort());
    expect(list.find((i) => i.facilityId === shipA)!.value).toBeCloseTo(a, 9);
    expect(list.find((i) => i.facilityId === shipB)).toMatchObject({
      value: expect.closeTo(b, 9),
      timestamp: '2024-03-02T00:00:00.000Z',
    });
    // The filter changes the numbers.
    const onlyB = (
      await admin.post('/api/reports/FacilityGroupMarpolComplianceLarge/data', {
        ...PERIOD,
        facilityIds: [shipB],
      })
    ).json();
    expect(onlyB.fields.ActualAverage.value).toBeCloseTo(b, 9);
  });

  it('ignores posted ships the caller may not see', async () => {
    const anna = await server.as('north.anna');
    const withForeign = (
      await anna.post('/api/reports/FacilityGroupCO2reduction/data', {
        ...PERIOD,
        facilityIds: [shipA, southShip, 'not-a-uuid'],
      })
    ).json();
    const own = (
      await anna.post('/api/reports/FacilityGroupCO2reduction/data', { ...PERIOD, facilityIds: [shipA] })
    ).json();
    expect(withForeign.fields.ActualAverage.value).toBeCloseTo(own.fields.ActualAverage.value, 9);
    expect(withForeign.fields.ActualAverage.value).toBeLessThan(1000);
    const marpol = (
      await anna.post('/api/reports/FacilityGroupMarpolComplianceLarge/data', {
        ...PERIOD,
        facilityIds: [southShip],
      })
    ).json();
    expect(marpol.fields.ActualAverage.value).toBeNull();
    expect(marpol.fields.Facilities.value).toEqual([]);
  });

  it("does not show a user another organization's ship", async () => {
    const anna = await server.as('north.anna');
    const response = await anna.get(
      `/api/reports/FacilityMarpolcompliance/data?${query({ ...PERIOD, facilityId: southShip })}`,
    );
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toBe('Ship not found');
    const lee = await server.as('south.lee');
    expect(
      (await lee.post('/api/reports/FacilityCO2reduction/data', { ...PERIOD, facilityId: shipA })).statusCode,
    ).toBe(404);
    // The fleet report for a foreign ship by id: not found either.
    expect(
      (
        await lee.get(
          `/api/reports/FacilityGroupCO2reduction/data?${query({ ...PERIOD, facilityId: shipA })}`,
        )
      ).statusCode,
    ).toBe(404);
  });

  it('answers 304 to a browser that holds the answer, and a new answer once the values or the visible ships change', async () => {
    const url = `/api/reports/FacilityGroupCO2reduction/data?${query(PERIOD)}`;
    const get = async (username: string, etag?: string) =>
      server.app.inject({
        method: 'GET',
        url,
        headers: {
          authorization: `Bearer ${await server.tokenFor(username)}`,
          ...(etag ? { 'if-none-match': etag } : {}),
        },
      });
    const first = await get('north.anna');
    expect(first.statusCode).toBe(200);
    const etag = String(first.headers.etag);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const again = await get('north.anna', etag);
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    // Another organization sees other ships: its answer (and tag) differ, a borrowed tag gives no 304.
    const lee = await get('south.lee', etag);
    expect(lee.statusCode).toBe(200);
    expect(lee.headers.etag).not.toBe(etag);
    // New values: a new answer under a new tag.
    await insertHours(shipA, kpiField.CO2Reduction!, '2024-03-02T05:00:00Z', [A_CO2[29]! + 1]);
    const changed = await get('north.anna', etag);
    expect(changed.statusCode).toBe(200);
    expect(changed.json().fields.ActualAverage.value).toBeCloseTo(
      first.json().fields.ActualAverage.value + 1,
      9,
    );
    await insertHours(shipA, kpiField.CO2Reduction!, '2024-03-02T05:00:00Z', [A_CO2[29]!]);
  });

  it('answers several reports in one request, each as it would be alone, under one ETag', async () => {
    const anna = await server.as('north.anna');
    const fleet = [
      'FacilityGroupCO2reduction',
      'FacilityGroupMarpolComplianceLarge',
      'FacilityGroupSFOCimpactPctlarge',
    ];
    const many = await anna.get(`/api/reports/data?${query({ ...PERIOD, reportIds: fleet.join(',') })}`);
    expect(many.statusCode).toBe(200);
    expect(many.headers['cache-control']).toBe('private, no-cache');
    const reports = many.json().reports as Record<string, unknown>;
    expect(Object.keys(reports)).toEqual(fleet);
    for (const id of fleet)
      expect(reports[id], id).toEqual((await anna.get(`/api/reports/${id}/data?${query(PERIOD)}`)).json());
    // Posted ships and a ship's reports with the uptime mode, as the dashboards ask.
    const posted = await anna.post('/api/reports/data', {
      ...PERIOD,
      facilityIds: [shipB],
      reportIds: ['FacilityGroupCO2reduction'],
    });
    expect(posted.json().reports.FacilityGroupCO2reduction).toEqual(
      (
        await anna.post('/api/reports/FacilityGroupCO2reduction/data', { ...PERIOD, facilityIds: [shipB] })
      ).json(),
    );
    const ship = await anna.get(
      `/api/reports/data?${query({ ...PERIOD, facilityId: shipA, duration: 'hourly', reportIds: 'FacilityCO2reduction,FacilityOperationalAvailabilitylarge' })}`,
    );
    expect(ship.statusCode).toBe(200);
    expect(ship.json().reports.FacilityOperationalAvailabilitylarge).toEqual(
      (
        await anna.get(
          `/api/reports/FacilityOperationalAvailabilitylarge/data?${query({ ...PERIOD, facilityId: shipA, duration: 'hourly' })}`,
        )
      ).json(),
    );

    // The browser's copy of the whole answer is revalidated at once.
    const url = `/api/reports/data?${query({ ...PERIOD, reportIds: fleet.join(',') })}`;
    const again = await server.app.inject({
      url,
      headers: {
        authorization: `Bearer ${await server.tokenFor('north.anna')}`,
        'if-none-match': String(many.headers.etag),
      },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    // A browser accepts gzip: the same answer compressed (made once and kept), for the first and the next request.
    for (let i = 0; i < 2; i++) {
      const zipped = await server.app.inject({
        url,
        headers: {
          authorization: `Bearer ${await server.tokenFor('north.anna')}`,
          'accept-encoding': 'gzip, deflate, br',
        },
      });
      expect(zipped.statusCode).toBe(200);
      expect(zipped.headers['content-encoding']).toBe('gzip');
      expect(zipped.headers.vary).toBe('accept-encoding');
      expect(zipped.headers.etag).toBe(many.headers.etag);
      expect(JSON.parse(gunzipSync(zipped.rawPayload).toString())).toEqual(many.json());
    }
    expect(many.headers['content-encoding']).toBeUndefined();
    const fewer = await anna.get(`/api/reports/data?${query({ ...PERIOD, reportIds: fleet[0]! })}`);
    expect(fewer.headers.etag).not.toBe(many.headers.etag);

    // Any report or ship not found: the whole request, with the single report's answer; a foreign ship as a missing one.
    const missing = await anna.get(
      `/api/reports/data?${query({ ...PERIOD, reportIds: `${fleet[0]},Nope` })}`,
    );
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('Report not found');
    const lee = await server.as('south.lee');
    const foreign = await lee.get(
      `/api/reports/data?${query({ ...PERIOD, facilityId: shipA, reportIds: 'FacilityCO2reduction' })}`,
    );
    const none = await lee.get(
      `/api/reports/data?${query({ ...PERIOD, facilityId: '00000000-0000-4000-8000-000000000000', reportIds: 'FacilityCO2reduction' })}`,
    );
    expect([foreign.statusCode, foreign.json().message]).toEqual([404, 'Ship not found']);
    expect([none.statusCode, none.json().message]).toEqual([404, 'Ship not found']);
    // No ids, or more than a dashboard would ever ask for: a bad request.
    expect((await anna.get(`/api/reports/data?${query({ ...PERIOD, reportIds: '' })}`)).statusCode).toBe(400);
    expect(
      (
        await anna.get(
          `/api/reports/data?${query({ ...PERIOD, reportIds: Array(21).fill(fleet[0]).join(',') })}`,
        )
      ).statusCode,
    ).toBe(400);
  });

  it('refuses bad input', async () => {
    const admin = await server.as('admin');
    expect((await admin.get(`/api/reports/FacilityMarpolcompliance/data?${query(PERIOD)}`)).statusCode).toBe(
      400,
    );
    expect(
      (
        await admin.get(
          `/api/reports/FacilityMarpolcompliance/data?${query({ from: PERIOD.to, to: PERIOD.from, facilityId: shipA })}`,
        )
      ).statusCode,
    ).toBe(400);
    expect(
      (
        await admin.get(
          `/api/reports/FacilityMarpolcompliance/data?${query({ from: 'yesterday', to: PERIOD.to, facilityId: shipA })}`,
        )
      ).statusCode,
    ).toBe(400);
    expect(
      (await admin.get(`/api/reports/Nope/data?${query({ ...PERIOD, facilityId: shipA })}`)).statusCode,
    ).toBe(404);
    expect(
      (
        await admin.get(
          `/api/reports/FacilityOperationalAvailabilitylarge/data?${query({ ...PERIOD, facilityId: shipA, duration: 'weekly' })}`,
        )
      ).statusCode,
    ).toBe(400);
    expect(
      (await admin.post('/api/reports/FacilityGroupCO2reduction/data', { ...PERIOD, facilityIds: 'all' }))
        .statusCode,
    ).toBe(400);
  });

  it('gives the hourly ratio and limit series of a ship', async () => {
    const admin = await server.as('admin');
    const { fields } = (
      await admin.get(`/api/reports/FacilitySO2CO2Ratio/data?${query({ ...PERIOD, facilityId: shipA })}`)
    ).json();
    expect(fields.ActualAverage.value).toBeCloseTo(avg(inPeriod(A_RATIO)), 9);
    const values = fields.Values.value as { timestamp: string; value: number }[];
    expect(values).toHaveLength(60);
    expect(values.find((p) => p.timestamp === '2024-03-02T06:00:00.000Z')!.value).toBe(40);
    const limits = fields.Limit.value as { timestamp: string; value: number }[];
    expect(limits[0]).toEqual({ timestamp: '2024-03-01T12:00:00.000Z', value: 4.3 });
    expect(limits.at(-1)).toEqual({ timestamp: '2024-03-03T23:00:00.000Z', value: 21.7 });
  });

  it('gives the uptime matrix hourly for short periods and daily averages in daily mode or beyond 3 months', async () => {
    const admin = await server.as('admin');
    const hourly = (
      await admin.get(
        `/api/reports/FacilityOperationalAvailabilitylarge/data?${query({ ...PERIOD, facilityId: shipA })}`,
      )
    ).json();
    const points = hourly.fields.Values.value as { timestamp: string; value: number | null }[];
    expect(points).toHaveLength(60);
    expect(points.find((p) => p.timestamp === '2024-03-02T05:00:00.000Z')!.value).toBe(120);
    expect(points.find((p) => p.timestamp === '2024-03-02T01:00:00.000Z')!.value).toBeNull();

    const dayAverage = avg(A_UPTIME.slice(24, 48));
    const daily = (
      await admin.get(
        `/api/reports/FacilityOperationalAvailabilitylarge/data?${query({ ...PERIOD, facilityId: shipA, duration: 'daily' })}`,
      )
    ).json();
    expect(daily.fields.Values.value).toEqual([
      { timestamp: '2024-03-01T00:00:00.000Z', value: expect.closeTo(avg(A_UPTIME.slice(0, 24)), 9) },
      { timestamp: '2024-03-02T00:00:00.000Z', value: expect.closeTo(dayAverage, 9) },
      { timestamp: '2024-03-03T00:00:00.000Z', value: expect.closeTo(avg(A_UPTIME.slice(48, 72)), 9) },
    ]);
    const long = (
      await admin.get(
        `/api/reports/FacilityOperationalAvailabilitylarge/data?${query({ from: '2024-01-01T00:00:00.000Z', to: '2024-04-30T23:59:59.999Z', facilityId: shipA })}`,
      )
    ).json();
    expect(long.fields.Values.value).toHaveLength(4);
    expect(long.fields.ActualAverage.value).toBeCloseTo(avg(A_UPTIME), 9);
  });

  it("gives a washwater criterion's daily points as the day's worst hour, not its average", async () => {
    const admin = await server.as('admin');
    const ph = await fieldId('FacilityWashwaterCriteria', 'PhValues');
    const pah = await fieldId('FacilityWashwaterCriteria', 'PahValues');
    // One hour of each day below the pH limit of 6.5 and one over the PAH limit of 50: the others are fine.
    const PH = hours(48, (i) => (i === 7 ? 5.9 : i === 30 ? 6.2 : 7));
    const PAH = hours(48, (i) => (i === 7 ? 80 : i === 30 ? 65 : 10));
    const { sourceOf } = await reportFieldValueSources(db);
    await insertHours(shipB, sourceOf.get(ph) ?? ph, '2023-12-01T00:00:00Z', PH);
    await insertHours(shipB, sourceOf.get(pah) ?? pah, '2023-12-01T00:00:00Z', PAH);
    const period = { from: '2023-12-01T00:00:00.000Z', to: '2023-12-02T23:59:59.999Z' };
    const { fields } = (
      await admin.get(
        `/api/reports/FacilityWashwaterCriteria/data?${query({ ...period, facilityId: shipB, duration: 'daily' })}`,
      )
    ).json();
    expect(fields.PhValues.value).toEqual([
      { timestamp: '2023-12-01T00:00:00.000Z', value: 5.9 },
      { timestamp: '2023-12-02T00:00:00.000Z', value: 6.2 },
    ]);
    expect(fields.PahValues.value).toEqual([
      { timestamp: '2023-12-01T00:00:00.000Z', value: 80 },
      { timestamp: '2023-12-02T00:00:00.000Z', value: 65 },
    ]);
    expect(fields.PhWorst.value).toBe(5.9);
  });

  it('deletes the report values of a ship for a period, the roll-up too, for a system administrator only', async () => {
    const admin = await server.as('admin');
    const q = query({ facilityId: shipB, from: '2024-03-02T00:00:00.000Z', to: '2024-03-02T04:59:59.999Z' });
    expect(
      (await (await server.as('north.admin')).delete(`/api/algorithm/reports/values?${q}`)).statusCode,
    ).toBe(403);
    const response = await admin.delete(`/api/algorithm/reports/values?${q}`);
    expect(response.statusCode).toBe(200);
    expect(response.json().deleted).toBe(10); // 5 hours of Marpol and of CO2 reduction
    const { fields } = (
      await admin.post('/api/reports/FacilityGroupMarpolComplianceLarge/data', {
        ...PERIOD,
        facilityIds: [shipB],
      })
    ).json();
    expect(fields.ActualAverage.value).toBeCloseTo(avg(B_MARPOL.slice(5)), 9);
    expect(fields.Lifetime.value).toBeCloseTo(avg(B_MARPOL.slice(5)), 9);
    expect(
      (
        await admin.delete(
          `/api/algorithm/reports/values?${query({ facilityId: 'nope', from: PERIOD.from, to: PERIOD.to })}`,
        )
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await admin.delete(
          `/api/algorithm/reports/values?${query({ facilityId: shipB, from: 'x', to: PERIOD.to })}`,
        )
      ).statusCode,
    ).toBe(400);
  });
});

describe('exports', () => {
  const exportAs = async (username: string, body: unknown) => {
    const token = await server.tokenFor(username);
    return server.app.inject({
      method: 'POST',
      url: '/api/algorithm/exports',
      headers: { authorization: `Bearer ${token}` },
      payload: body as object,
    });
  };

  it('downloads an .xlsx workbook with UTC timestamps, units in the headers and formula-looking names as text', async () => {
    await db
      .updateTable('facilities')
      .set({ name: '=HYPERLINK("http://evil","x")' })
      .where('id', '=', shipA)
      .execute();
    const response = await exportAs('admin', {
      reportCode: 'FacilityMarpolcompliance',
      facilityIds: [shipA],
      ...PERIOD,
      resolution: 'hour',
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toBe('attachment; filename="export.xlsx"');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    expect(workbook.worksheets).toHaveLength(1);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.name).toBe('FacilityMarpolcompliance');
    // The four fields read one hourly series: one column.
    expect(sheet.getRow(1).values).toEqual([
      undefined,
      'Ship',
      'IMO',
      'Timestamp (UTC)',
      'ActualAverage (%)',
    ]);
    expect(sheet.rowCount).toBe(1 + 60);
    const first = sheet.getRow(2);
    expect(first.getCell(1).type).toBe(ExcelJS.ValueType.String);
    expect(first.getCell(1).value).toBe('=HYPERLINK("http://evil","x")');
    expect(first.getCell(1).formula).toBeUndefined();
    expect((first.getCell(3).value as Date).toISOString()).toBe('2024-03-01T12:00:00.000Z');
    expect(first.getCell(4).value).toBe(A_MARPOL[12]);
  });

  it('exports daily values aggregated by the field, only for chosen fields', async () => {
    const response = await exportAs('admin', {
      reportCode: 'FacilityCO2reduction',
      fieldNames: ['Lifetime'],
      facilityIds: [shipA],
      from: '2024-03-01T00:00:00.000Z',
      to: '2024-03-04T23:59:59.999Z',
      resolution: 'day',
    });
    expect(response.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.getRow(1).values).toEqual([undefined, 'Ship', 'IMO', 'Timestamp (UTC)', 'Lifetime (t)']);
    expect(sheet.rowCount).toBe(1 + 4);
    expect(sheet.getRow(3).getCell(4).value).toBeCloseTo(sum(A_CO2.slice(24, 48)), 9);
  });

  it('writes timestamps as UTC date cells in the display format and values rounded by their format', async () => {
    kpiField.RatioMargin = await fieldId('FacilityGroupSO2CO2Ratio', 'ActualAverage');
    const start = '2024-04-01T00:00:00Z';
    const noisy = {
      [kpiField.SO2CO2Ratio!]: [3.14159265, 15.555555],
      [kpiField.SO2CO2Limit!]: [21.700000000000024, 4.299999999999999],
      [kpiField.RatioMargin]: [99.958, 28.84],
    };
    for (const [field, values] of Object.entries(noisy)) await insertHours(shipB, field, start, values);
    try {
      const body = {
        reportCode: 'FacilitySO2CO2Ratio',
        fieldNames: ['ActualAverage', 'Facility', 'Limit'],
        facilityIds: [shipB],
        from: '2024-04-01T00:00:00.000Z',
        to: '2024-04-01T23:59:59.999Z',
        resolution: 'hour',
      };
      const load = async (payload: object) => {
        const response = await exportAs('admin', payload);
        expect(response.statusCode).toBe(200);
        const workbook = new ExcelJS.Workbook();
        await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
        const sheet = workbook.worksheets[0]!;
        const headers = (sheet.getRow(1).values as unknown[]).slice(1) as string[];
        const cell = (row: number, header: string) => {
          const column = headers.indexOf(header) + 1;
          expect(column, header).toBeGreaterThan(0);
          return sheet.getRow(row).getCell(column);
        };
        return { sheet, headers, cell };
      };

      const { headers, cell } = await load(body);
      expect(headers).toEqual([
        'Ship',
        'IMO',
        'Timestamp (UTC)',
        'ActualAverage (ppm/%)',
        'Facility (%)',
        'Limit (ppm/%)',
      ]);
      const time = cell(2, 'Timestamp (UTC)');
      expect(time.type).toBe(ExcelJS.ValueType.Date);
      expect((time.value as Date).toISOString()).toBe('2024-04-01T00:00:00.000Z');
      expect(time.numFmt).toBe('yyyy.mm.dd hh:mm');
      // Ratio 2 decimals, percent 1 (99.958 truncated, never 100.0), no floating-point noise.
      expect([2, 3].map((r) => cell(r, 'ActualAverage (ppm/%)').value)).toEqual([3.14, 15.56]);
      expect([2, 3].map((r) => cell(r, 'Limit (ppm/%)').value)).toEqual([21.7, 4.3]);
      expect([2, 3].map((r) => cell(r, 'Facility (%)').value)).toEqual([99.9, 28.8]);
      expect(cell(2, 'Limit (ppm/%)').numFmt).toBe('#,##0.00');
      expect(cell(2, 'Facility (%)').numFmt).toBe('#,##0.0');

      // Full precision only when asked: a second column per field with the value as stored.
      const full = await load({ ...body, fullPrecision: true });
      expect(full.headers).toContain('Limit (ppm/%), full precision');
      expect(full.cell(2, 'Limit (ppm/%)').value).toBe(21.7);
      expect(full.cell(2, 'Limit (ppm/%), full precision').value).toBe(21.700000000000024);
      expect(full.cell(2, 'Facility (%), full precision').value).toBe(99.958);

      // Day rows: date cells in the date format.
      const day = await load({ ...body, resolution: 'day' });
      expect(day.cell(2, 'Timestamp (UTC)').type).toBe(ExcelJS.ValueType.Date);
      expect(day.cell(2, 'Timestamp (UTC)').numFmt).toBe('yyyy.mm.dd');
      expect(day.cell(2, 'Limit (ppm/%)').value).toBe(13);
    } finally {
      await db
        .deleteFrom('report_values')
        .where('facility_id', '=', shipB)
        .where('span_start', '>=', new Date(start))
        .where('span_start', '<', new Date('2024-04-02T00:00:00Z'))
        .execute();
      await refreshDailyRollup(db, shipB, 'all', new Date(start), new Date('2024-04-02T00:00:00Z'));
    }
  });

  it('is for system administrators only and refuses bad input', async () => {
    const body = { reportCode: 'FacilityCO2reduction', facilityIds: [shipA], ...PERIOD, resolution: 'hour' };
    expect((await exportAs('north.admin', body)).statusCode).toBe(403);
    expect((await exportAs('admin', { ...body, resolution: 'minute' })).statusCode).toBe(400);
    expect((await exportAs('admin', { ...body, facilityIds: [] })).statusCode).toBe(400);
    expect((await exportAs('admin', { ...body, from: PERIOD.to, to: PERIOD.from })).statusCode).toBe(400);
    expect((await exportAs('admin', { ...body, fieldNames: ['Nope'] })).statusCode).toBe(400);
    expect((await exportAs('admin', { ...body, reportCode: 'Nope' })).statusCode).toBe(404);
    expect(
      (await exportAs('admin', { ...body, facilityIds: ['00000000-0000-0000-0000-000000000000'] }))
        .statusCode,
    ).toBe(404);
  });
});

describe('daily roll-up', () => {
  it('sums in time order, however the rows lie on disk: the same hours give the same total on every ship', async () => {
    // 0.1 + 0.2 + 0.3 is 0.6000000000000001 in time order and 0.6 backwards. The rows are written last first, as a
    // roll-up's grouped insert or a recalculation of older data may leave them.
    const field = kpiField.CO2Reduction!;
    const write = async (start: string, values: number[]) => {
      const t0 = new Date(start).getTime();
      for (let h = values.length - 1; h >= 0; h--)
        await db
          .insertInto('report_values')
          .values({
            facility_id: shipB,
            report_field_id: field,
            span_start: new Date(t0 + h * HOUR),
            value: values[h]!,
          })
          .execute();
      await refreshDailyRollup(db, shipB, [field], new Date(t0), new Date(t0 + values.length * HOUR));
    };
    const inTimeOrder = 0.1 + 0.2 + 0.3;
    expect(inTimeOrder).not.toBe(0.3 + 0.2 + 0.1);
    // On a small table the planner walks the primary key, in time order; on a big one it takes a bitmap or a
    // sequential scan, in the order the rows lie on disk (an onboarded ship's week summed 1779.654255168 t where the
    // demo ship's same hours summed 1779.6542551679997 t). Without index scans the small table is read that way too
    // (on PGlite, one connection, the setting holds for the server's queries).
    const oneConnection = server.services.database.kind === 'pglite';
    if (oneConnection) await sql`set enable_indexscan = off`.execute(db);
    try {
      // A day's hours, last hour first: the day's roll-up.
      await write('2024-01-01T00:00:00Z', [0.1, 0.2, 0.3]);
      const day = await db
        .selectFrom('report_values_daily')
        .select('value_sum')
        .where('facility_id', '=', shipB)
        .where('report_field_id', '=', field)
        .where('day', '=', '2024-01-01')
        .executeTakeFirstOrThrow();
      expect(day.value_sum).toBe(inTimeOrder);
      // Three days of one hour each, the last day first: the period's sum of the days' roll-ups.
      for (const [start, value] of [
        ['2024-01-12T05:00:00Z', 0.3],
        ['2024-01-11T05:00:00Z', 0.2],
        ['2024-01-10T05:00:00Z', 0.1],
      ] as const)
        await write(start, [value]);
      const admin = await server.as('admin');
      const period = (from: string, to: string) =>
        admin
          .get(`/api/reports/FacilityCO2reduction/data?${query({ from, to, facilityId: shipB })}`)
          .then((r) => r.json().fields.ActualAverage.value as number);
      expect(await period('2024-01-10T00:00:00.000Z', '2024-01-12T23:59:59.999Z')).toBe(inTimeOrder);
      // The same hours as edge hours of a period that is not whole days.
      expect(await period('2024-01-10T01:00:00.000Z', '2024-01-12T23:59:59.999Z')).toBe(inTimeOrder);
      expect(await period('2024-01-10T01:00:00.000Z', '2024-01-12T22:59:59.999Z')).toBe(inTimeOrder);
    } finally {
      if (oneConnection) await sql`reset enable_indexscan`.execute(db);
    }
  });

  it('recomputes the days touching the range and drops days without spans', async () => {
    const field = kpiField.CO2Reduction!;
    await insertHours(shipB, field, '2024-05-10T22:00:00Z', [1, 2, null, 4]);
    const rows = await db
      .selectFrom('report_values_daily')
      .select(['value_sum', 'value_count', 'span_count', 'value_min', 'value_max'])
      .where('facility_id', '=', shipB)
      .where('report_field_id', '=', field)
      .where('day', '>=', '2024-05-10')
      .orderBy('day')
      .execute();
    expect(rows).toEqual([
      { value_sum: 3, value_count: 2, span_count: 2, value_min: 1, value_max: 2 },
      { value_sum: 4, value_count: 1, span_count: 2, value_min: 4, value_max: 4 },
    ]);
    await db
      .deleteFrom('report_values')
      .where('facility_id', '=', shipB)
      .where('span_start', '>=', new Date('2024-05-11T00:00:00Z'))
      .execute();
    await refreshDailyRollup(
      db,
      shipB,
      'all',
      new Date('2024-05-11T05:00:00Z'),
      new Date('2024-05-11T06:00:00Z'),
    );
    const after = await db
      .selectFrom('report_values_daily')
      .select('day')
      .where('facility_id', '=', shipB)
      .where('day', '>=', '2024-05-10')
      .execute();
    expect(after).toHaveLength(1);
  });
});

describe('long chart series', () => {
  it('comes back down-sampled for a year of hourly points, with the crossings of the limit and the extremes kept', async () => {
    // A year of the South ship's hourly ratio (2021): a daily wave between 2 and 4 under the ECA limit of 4.3, one
    // hour over it (a crossing) and one far higher; the limit steps to 21.7 outside the ECA for a month.
    const YEAR_HOURS = 8_760;
    const t0 = '2021-01-01T00:00:00Z';
    const ratio = hours(YEAR_HOURS, (h) => (h === 5_000 ? 4.6 : h === 7_777 ? 38 : 3 + Math.sin(h / 4)));
    const limit = hours(YEAR_HOURS, (h) => (h >= 2_000 && h < 2_720 ? 21.7 : 4.3));
    await insertHours(southShip, kpiField.SO2CO2Ratio!, t0, ratio);
    await insertHours(southShip, kpiField.SO2CO2Limit!, t0, limit);
    const at = (h: number) => new Date(Date.parse(t0) + h * HOUR).toISOString();
    const year = { from: '2021-01-01T00:00:00.000Z', to: '2021-12-31T23:59:59.999Z', facilityId: southShip };
    const admin = await server.as('admin');

    const response = await admin.get(
      `/api/reports/FacilitySO2CO2Ratio/data?${query({ ...year, duration: 'hourly' })}`,
    );
    expect(response.statusCode, response.body).toBe(200);
    const { fields } = response.json();
    const values = fields.Values.value as { timestamp: string; value: number }[];
    const limits = fields.Limit.value as { timestamp: string; value: number }[];
    expect(values.length).toBeLessThanOrEqual(2_000);
    expect(values.length).toBeGreaterThan(1_000);
    // The series and its limit keep the same hours, and every kept point is an hour as stored.
    expect(limits.map((p) => p.timestamp)).toEqual(values.map((p) => p.timestamp));
    for (const p of values.slice(0, 50)) {
      const h = (Date.parse(p.timestamp) - Date.parse(t0)) / HOUR;
      expect(p.value).toBeCloseTo(ratio[h]!, 9);
    }
    const kept = new Map(values.map((p) => [p.timestamp, p.value]));
    // The hour over the limit and the hours on either side of it: the crossing is drawn.
    for (const h of [4_999, 5_000, 5_001]) expect(kept.get(at(h)), at(h)).toBeCloseTo(ratio[h]!, 9);
    // The highest and the lowest hour, the first and the last.
    expect(kept.get(at(7_777))).toBe(38);
    const lowest = ratio.indexOf(Math.min(...(ratio as number[])));
    expect(kept.has(at(lowest))).toBe(true);
    expect(values[0]!.timestamp).toBe(at(0));
    expect(values.at(-1)!.timestamp).toBe(at(YEAR_HOURS - 1));
    // The limit's steps out of and back into the ECA.
    const limitAt = new Map(limits.map((p) => [p.timestamp, p.value]));
    expect([1_999, 2_000, 2_719, 2_720].map((h) => limitAt.get(at(h)))).toEqual([4.3, 21.7, 21.7, 4.3]);
    // The average is of every hour, not of the points drawn.
    expect(fields.ActualAverage.value).toBeCloseTo(avg(ratio), 9);
    expect(response.body.length).toBeLessThan(300_000);

    // Daily (the dashboards' mode beyond 3 months): a point a day, not reduced.
    const daily = (await admin.get(`/api/reports/FacilitySO2CO2Ratio/data?${query(year)}`)).json();
    expect(daily.fields.Values.value).toHaveLength(365);
  });
});
