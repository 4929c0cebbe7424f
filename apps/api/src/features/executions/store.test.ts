import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineGround } from '../../../test/engine-fixtures';
import { readMeasurementValues, reportFieldValueSources } from '../../storage';
import type { ReportSeries } from './report-fields';
import { storeMeasurementValues, storeReportValues, type Computed } from './store';

const H = 3_600_000;

describe('store step', () => {
  let ground: Awaited<ReturnType<typeof engineGround>>;
  beforeAll(async () => {
    ground = await engineGround();
  }, 120_000);
  afterAll(() => ground?.database.close());

  it("replaces the period's measurement chunks and report values of the recomputed fields", async () => {
    const { db } = ground.database;
    const request = ground.request();
    const field = await db.selectFrom('measurement_fields').select('id').limit(1).executeTakeFirstOrThrow();
    const reportFields = await db.selectFrom('report_fields').select('id').limit(2).execute();
    const timestamps = Float64Array.from([request.from, request.from + 60_000, request.from + H]);
    const shared: ReportSeries = {
      spanStarts: Float64Array.from([request.from, request.from + H]),
      values: Float64Array.from([1.5, NaN]),
    };
    const computed: Computed = {
      request,
      measurement: new Map([[field.id, { timestamps, values: Float64Array.from([1, NaN, 3]) }]]),
      report: new Map(reportFields.map((f) => [f.id, shared])),
      replaceMeasurementFieldIds: 'all',
      replaceReportFieldIds: 'all',
      counts: { targets: 3, samples: 3, measurementFields: 1, measurementValues: 3, reportFields: 2 },
      events: null,
    };
    const written = await db.transaction().execute(async (trx) => ({
      measurement: await storeMeasurementValues(trx, computed),
      report: await storeReportValues(trx, computed),
    }));
    // A series is stored once per value source (decision 0132): fields sharing a calculation share one.
    const { sourceOf } = await reportFieldValueSources(db);
    const sources = [...new Set(reportFields.map((f) => sourceOf.get(f.id) ?? f.id))].sort();
    expect(written).toEqual({ measurement: 1, report: 2 * sources.length });
    const stored = await readMeasurementValues(db, request.facilityId, field.id, request.from, request.to);
    expect(Array.from(stored.timestamps)).toEqual(Array.from(timestamps));
    expect(Array.from(stored.values)).toEqual([1, NaN, 3]);
    const rows = await db
      .selectFrom('report_values')
      .select(['report_field_id', 'value'])
      .where('facility_id', '=', request.facilityId)
      .orderBy('report_field_id')
      .orderBy('span_start')
      .execute();
    // Under each value source once; NaN is stored as null.
    expect(rows.map((r) => r.report_field_id)).toEqual(sources.flatMap((id) => [id, id]));
    expect(rows.map((r) => r.value)).toEqual(sources.flatMap(() => [1.5, null]));

    // Stored again with nothing computed: the period is emptied (a whole-day replacement).
    await db
      .transaction()
      .execute(async (trx) =>
        storeMeasurementValues(trx, { ...computed, measurement: new Map(), report: new Map() }),
      );
    expect(
      (await readMeasurementValues(db, request.facilityId, field.id, request.from, request.to)).timestamps
        .length,
    ).toBe(0);
  });
});
