import { sql, type Kysely } from 'kysely';
import { DEFAULT_MEASUREMENT_FIELDS, DEFAULT_REPORT_KPIS } from '@portal/formula';
import type { Database } from '../../db/schema';
import { carryReportSeries, hasReportValues, reportFieldValueSources } from '../../storage';
import { DEFAULT_REPORTS } from './catalogue';
import { sanitizeInformation } from './sanitize';

/** Default calculations are valid from here on. */
export const DEFAULT_VALID_FROM = new Date('2000-01-01T00:00:00.000Z');

/**
 * The default reports, their fields and an approved default calculation per field: product data, present on every
 * start (server.ts), so a real deployment has its dashboards' reports and an upgraded one gets the reports a release
 * adds. Idempotent: what exists (a report by id, a field by report and name, any calculation of a field) is kept as
 * the configurator left it (approved calculations cannot be deleted, so a default is never put back over a choice).
 * Measurement fields the KPIs read are created by name when missing, so the order of the seeds does not matter.
 * A default calculation added where report values are stored already asks for its recalculation, as an approval
 * does: the calculation queue then offers the past periods. Processes starting together take turns (an advisory
 * lock), so none adds a calculation twice.
 */
export async function seedReports(
  db: Kysely<Database>,
): Promise<{ reports: number; fields: number; calculations: number }> {
  const counts = { reports: 0, fields: 0, calculations: 0 };
  await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtextextended('seed:reports', 0))`.execute(trx);
    // Usually everything is there: then nothing is written (a write would bump reports_version for every process).
    const present = await trx
      .selectFrom('report_fields as f')
      .innerJoin('reports as r', 'r.id', 'f.report_id')
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('report_field_calculations as c')
            .select('c.id')
            .whereRef('c.report_field_id', '=', 'f.id'),
        ),
      )
      .select(['f.report_id', 'f.name'])
      .execute();
    const complete = new Set(present.map((p) => `${p.report_id}\u0000${p.name}`));
    if (DEFAULT_REPORTS.every((r) => r.fields.every((f) => complete.has(`${r.id}\u0000${f.name}`)))) return;
    const valuesStored = await hasReportValues(trx);
    // A new field may join a group of fields sharing a calculation ahead of its value source: the group's stored series
    // then follows (storage carryReportSeries; docs/decisions/0132-report-series-once.md).
    const before = valuesStored ? await reportFieldValueSources(trx) : null;
    const now = new Date();
    const neededNames = [...new Set(DEFAULT_REPORT_KPIS.flatMap((k) => k.inputNames))];
    const catalogue = DEFAULT_MEASUREMENT_FIELDS.filter((f) => neededNames.includes(f.name));
    if (catalogue.length) {
      await trx
        .insertInto('measurement_fields')
        .values(
          catalogue.map((f, i) => ({
            name: f.name,
            data_type: f.dataType as 'Double',
            unit: f.unit || null,
            documentation: f.documentation,
            position: 100 + i,
          })),
        )
        .onConflict((oc) => oc.expression(sql`lower(name)`).doNothing())
        .execute();
    }
    const fieldRows = await trx.selectFrom('measurement_fields').select(['id', 'name']).execute();
    const measurementFieldId = new Map(fieldRows.map((r) => [r.name.toLowerCase(), r.id]));

    for (const [reportPosition, report] of DEFAULT_REPORTS.entries()) {
      const inserted = await trx
        .insertInto('reports')
        .values({
          id: report.id,
          name: report.name,
          target: report.target,
          documentation: report.documentation,
          information: sanitizeInformation(report.information),
          position: reportPosition,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .returning('id')
        .execute();
      counts.reports += inserted.length;

      for (const [position, field] of report.fields.entries()) {
        const newField = await trx
          .insertInto('report_fields')
          .values({
            report_id: report.id,
            name: field.name,
            position,
            as_lifetime: field.asLifetime ?? false,
            as_series: field.asSeries ?? false,
            by_facility: field.byFacility ?? false,
            facility_aggregate_type: field.facilityAggregateType,
            time_aggregate_type: field.timeAggregateType,
            format: field.format,
            format_note: field.formatNote ?? null,
            interface_type: field.interfaceType,
            unit: field.unit,
            note: field.note ?? null,
            documentation: field.documentation,
          })
          .onConflict((oc) => oc.columns(['report_id', 'name']).doNothing())
          .returning('id')
          .execute();
        counts.fields += newField.length;
        const row = await trx
          .selectFrom('report_fields')
          .select('id')
          .where('report_id', '=', report.id)
          .where('name', '=', field.name)
          .executeTakeFirstOrThrow();
        const hasCalculation = await trx
          .selectFrom('report_field_calculations')
          .select('id')
          .where('report_field_id', '=', row.id)
          .limit(1)
          .executeTakeFirst();
        if (hasCalculation) continue;

        const kpi = DEFAULT_REPORT_KPIS.find((k) => k.key === field.kpi);
        if (!kpi) throw new Error(`No default KPI ${field.kpi}`);
        const inputIds = kpi.inputNames.map((name) => {
          const id = measurementFieldId.get(name.toLowerCase());
          if (!id) throw new Error(`Measurement field ${name} missing`);
          return id;
        });
        await trx
          .insertInto('report_field_calculations')
          .values({
            report_field_id: row.id,
            comment: `Default calculation: ${kpi.name}`,
            documentation: `Hourly ${kpi.name.toLowerCase()} (${kpi.unit}) as DOMAIN.md defines it.`,
            algorithm_seconds_span: kpi.algorithmSecondsSpan,
            input_ids: JSON.stringify(inputIds),
            transform_algorithm: kpi.transformAlgorithm,
            quality_score: 5,
            approved_on: now,
            valid_from: DEFAULT_VALID_FROM,
            recalculation_requested_on: valuesStored ? now : null,
          })
          .execute();
        counts.calculations += 1;
      }
    }
    if (before) await carryReportSeries(trx, before);
  });
  return counts;
}
