import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { DataHealthPort } from './ports';
import { loadApprovedCalculations } from './plan/calculations';
import { loadEventRules, loadReportFieldNames } from './plan/names-and-rules';
import { byField, measurementOrder, requestedReportCalcs } from './plan/order';
import { loadShip } from './plan/ship';
import type { ComputeRequest, ExecutionPlan } from './plan/types';

export type { Channel, ComputeRequest, ExecutionPlan, MeasurementCalc, ReportCalc } from './plan/types';

/** A measurement field's name, else a channel's name, else the id. */
export const nameOf = (plan: Pick<ExecutionPlan, 'fieldName' | 'channelById'>, id: string) =>
  plan.fieldName.get(id) ?? plan.channelById.get(id)?.name ?? id;

/**
 * Step "load configuration and plan": the ship (plan/ship.ts: its constants, data sources and channels), the
 * approved calculations valid in the period (plan/calculations.ts), the measurement fields to recompute in
 * dependency order (plan/order.ts: a cycle fails the execution) and the requested report fields' calculations with
 * their names, the event rules (plan/names-and-rules.ts) and, through data health's port, the channels' thresholds.
 */
export async function loadPlan(
  db: Kysely<Database>,
  request: ComputeRequest,
  dataHealth: Pick<DataHealthPort, 'thresholdsOf'>,
): Promise<ExecutionPlan> {
  const { facilityId, from, to } = request;
  const ship = await loadShip(db, facilityId);
  const { channels, fieldName } = ship;
  const channelById = new Map(channels.map((c) => [c.id, c]));
  const calcs = await loadApprovedCalculations(db, facilityId, from, to);
  const measurementCalcsByField = byField(calcs.measurement);
  const order = measurementOrder(measurementCalcsByField, request.measurementFieldIds, fieldName, (id) =>
    nameOf({ fieldName, channelById }, id),
  );
  const reportCalcsByField = requestedReportCalcs(calcs.report, request.reportFieldIds);
  const reportFieldNames = await loadReportFieldNames(db, [...reportCalcsByField.keys()]);
  const rules = await loadEventRules(db, ship.organizationId);
  return {
    request,
    constants: ship.constants,
    primaryId: ship.dataSources.find((d) => d.is_primary)?.id,
    dataSourceNames: new Map(ship.dataSources.map((d) => [d.id, d.name])),
    channels,
    channelById,
    fieldName,
    measurementCalcsByField,
    order,
    reportCalcsByField,
    reportFieldNames,
    events: {
      rules,
      dataEnd: ship.dataEnd,
      thresholdOf: await dataHealth.thresholdsOf(db, ship.organizationId),
    },
  };
}
