import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { ExecutionError, compileCalculation, runCalculation } from './calculations';
import type { FieldSeriesOf } from './measurement-fields';
import { nameOf, type ExecutionPlan, type ReportCalc } from './plan';
import { alignExact, unionAxis, validitySegments } from './series';
import { lowerBound } from '../../storage';

/** A report field's values: one per span (start, UTC epoch ms) that holds at least one target timestamp. */
export interface ReportSeries {
  spanStarts: Float64Array;
  values: Float64Array;
}

/**
 * The key of a field's calculations in the period: fields with the same key compute the same values (same
 * algorithms, inputs, spans and validity, in the same order of precedence), so they are computed once
 * (docs/decisions/0030-report-fields.md).
 */
export function calculationKey(calcs: readonly ReportCalc[]): string {
  const ordered = [...calcs].sort((a, b) => a.validFrom - b.validFrom || a.approvedOn - b.approvedOn);
  return JSON.stringify(ordered.map((c) => [c.algorithm, c.inputIds, c.span, c.validFrom, c.validTo]));
}

/**
 * Groups the report fields to compute by their calculations in the period: each group is computed once, by its
 * first field, and its values belong to every field of the group.
 */
export function shareCalculations(
  reportCalcsByField: ReadonlyMap<string, ReportCalc[]>,
): { fieldId: string; calcs: ReportCalc[]; fieldIds: string[] }[] {
  const groups = new Map<string, { fieldId: string; calcs: ReportCalc[]; fieldIds: string[] }>();
  for (const [fieldId, calcs] of reportCalcsByField) {
    const key = calculationKey(calcs);
    const group = groups.get(key);
    if (group) group.fieldIds.push(fieldId);
    else groups.set(key, { fieldId, calcs, fieldIds: [fieldId] });
  }
  return [...groups.values()];
}

/**
 * Step "report fields": per span (`algorithm_seconds_span`, UTC-aligned) holding at least one target timestamp, from
 * the measurement field series on the union of their timestamps. Each distinct approved calculation is computed
 * once; the fields that share it get the same values.
 */
export async function computeReportFields(
  plan: ExecutionPlan,
  seriesOf: FieldSeriesOf,
): Promise<Map<string, ReportSeries>> {
  const { from, to, budgetMs } = plan.request;
  const { fieldName, constants } = plan;
  const name = (id: string) => nameOf(plan, id);
  const report = new Map<string, ReportSeries>();
  for (const group of shareCalculations(plan.reportCalcsByField)) {
    const reportFieldId = group.fieldId;
    const segments = validitySegments<ReportCalc>(
      group.calcs.map((c) => ({ item: c, from: c.validFrom, to: c.validTo, rank: c.approvedOn })),
      from,
      to,
    );
    const starts: number[] = [];
    const values: number[] = [];
    for (const segment of segments) {
      const calc = segment.item;
      const what = `Report field ${plan.reportFieldNames.get(reportFieldId) ?? reportFieldId}, calculation ${calc.version}.${calc.revision}`;
      const inputIds = calc.inputIds.filter((id) => fieldName.has(id));
      if (inputIds.length !== calc.inputIds.length)
        throw new ExecutionError(`${what}: an input is not a measurement field`);
      const program = compileCalculation('report-field', what, calc.algorithm, inputIds.map(name));
      const series = await Promise.all(inputIds.map(seriesOf));
      const axis = unionAxis(series.map((s) => s.timestamps));
      const lo = lowerBound(axis, segment.from);
      const hi = lowerBound(axis, segment.to);
      if (hi <= lo) continue;
      const timestamps = axis.subarray(lo, hi);
      const inputs: Record<string, Float64Array> = {};
      inputIds.forEach((id, k) => {
        if (program.inputNames.includes(name(id)))
          inputs[name(id)] = alignExact(series[k]!.timestamps, series[k]!.values, axis).subarray(lo, hi);
      });
      // The spans that hold at least one target timestamp.
      const spanMs = calc.span * 1000;
      const spanStarts: number[] = [];
      for (let i = 0; i < timestamps.length; i++) {
        const s = Math.floor(timestamps[i]! / spanMs) * spanMs;
        if (spanStarts[spanStarts.length - 1] !== s) spanStarts.push(s);
      }
      const out = runCalculation(what, () =>
        program.evaluateSpans({
          spanStarts: Float64Array.from(spanStarts),
          spanSeconds: calc.span,
          timestamps,
          inputs,
          constants,
          budgetMs,
        }),
      );
      for (let i = 0; i < spanStarts.length; i++) {
        starts.push(spanStarts[i]!);
        values.push(out[i]!);
      }
    }
    const computed = { spanStarts: Float64Array.from(starts), values: Float64Array.from(values) };
    for (const fieldId of group.fieldIds) report.set(fieldId, computed);
    await yieldToEventLoop();
  }
  return report;
}
