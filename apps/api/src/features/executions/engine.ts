import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { lockShipValues, readMeasurementValues, refreshDailyRollup, type FieldSeries } from '../../storage';
import { computeMeasurementFields, fieldSeriesOf } from './measurement-fields';
import { loadPlan, type ComputeRequest } from './plan';
import { readSamples } from './read-samples';
import { computeReportFields } from './report-fields';
import { deriveComplianceEvents } from './derive-events';
import { storeComplianceEvents } from './store-events';
import { deriveLedger, loadLedgerConfig } from './derive-ledger';
import { storeLedger } from './store-ledger';
import type { EnginePorts } from './ports';
import { storeMeasurementValues, storeReportValues, type Computed } from './store';

/**
 * The execution engine (docs/decisions/0040-execution.md): from a ship's raw samples to measurement field values
 * (per target timestamp) and report values (per span), for whole UTC days or a live window of minutes (live.ts,
 * docs/decisions/0122-live-windows.md), written in one transaction that replaces
 * what the period held before. A pipeline of named steps, each a module of this folder:
 *
 *   load configuration and plan (plan.ts) -> read samples (read-samples.ts) -> measurement fields
 *   (measurement-fields.ts) -> report fields (report-fields.ts) -> compliance events (derive-events.ts, the rules
 *   in compliance-events.ts) -> store (store.ts, store-events.ts with the record book) -> port calls and voyages
 *   (derive-ledger.ts, the rules in packages/contracts/src/rules/carbon; store-ledger.ts) -> roll up
 *   (storage/report-values-daily.ts)
 *
 * The first five compute (computePeriod, outside any transaction); the rest write (storeComputed, in the
 * transaction the caller gives, under the ship's lock; the carbon ledger is derived there too). Each step's time is added to `request.timings` under its name.
 */

export { ExecutionError } from './calculations';
export type { ComputeRequest } from './plan';
export type { Computed, ComputedCounts } from './store';
export type { EnginePorts } from './ports';

async function step<T>(
  timings: Record<string, number> | undefined,
  name: string,
  run: () => Promise<T>,
): Promise<T> {
  const started = performance.now();
  const value = await run();
  if (timings) timings[name] = (timings[name] ?? 0) + (performance.now() - started);
  return value;
}

/** Computes (does not store) the values of a ship's period; data health's rules come through `ports`. */
export async function computePeriod(
  db: Kysely<Database>,
  request: ComputeRequest,
  ports: Pick<EnginePorts, 'dataHealth'>,
): Promise<Computed> {
  const { facilityId, from, to, timings } = request;
  const plan = await step(timings, 'load configuration', () => loadPlan(db, request, ports.dataHealth));
  const samples = await step(timings, 'read samples', () => readSamples(db, plan));
  // Fields not recomputed are read from storage when another field or a report field reads them, once each.
  const stored = new Map<string, Promise<FieldSeries>>();
  const readStored = (fieldId: string) => {
    let series = stored.get(fieldId);
    if (!series) stored.set(fieldId, (series = readMeasurementValues(db, facilityId, fieldId, from, to)));
    return series;
  };
  // A rolling window at the period's start reads the stored values of the minutes before it.
  const readHistory = (fieldId: string, historyFrom: number, historyTo: number) =>
    readMeasurementValues(db, facilityId, fieldId, historyFrom, historyTo);
  const measurement = await step(timings, 'measurement fields', () =>
    computeMeasurementFields(plan, samples, readStored, readHistory),
  );
  const report = await step(timings, 'report fields', () =>
    computeReportFields(plan, fieldSeriesOf(measurement, readStored)),
  );
  let measurementValues = 0;
  for (const series of measurement.values()) measurementValues += series.timestamps.length;
  const events = await step(timings, 'compliance events', () =>
    deriveComplianceEvents(db, plan, fieldSeriesOf(measurement, readStored), ports.dataHealth),
  );
  return {
    request,
    measurement,
    report,
    counts: {
      targets: samples.primaryTimestamps.length,
      samples: samples.inputValues,
      measurementFields: measurement.size,
      measurementValues,
      reportFields: report.size,
    },
    events,
    replaceMeasurementFieldIds:
      request.measurementFieldIds === 'all' ? 'all' : [...request.measurementFieldIds],
    replaceReportFieldIds: request.reportFieldIds === 'all' ? 'all' : [...request.reportFieldIds],
  };
}

/**
 * Replaces the stored values of the computed period in the given transaction: deletes the period's rows of the
 * recomputed fields, inserts the new ones and refreshes the daily roll-up. A live window's edge days keep their values
 * outside it (storage/measurement-values.ts). The events' alerts go to the outbox of `ports` in the same transaction;
 * last, the ship's zone warnings are evaluated from its latest stored values (ports.zoneWarnings), whatever period
 * was stored.
 *
 * The carbon ledger is derived here, under the ship's lock, not in computePeriod: its window reaches beyond the
 * period into days other executions of the ship may be storing at the same time, and under the lock it reads what
 * they committed (docs/decisions/0111-carbon-ledger-engine.md).
 */
export async function storeComputed(
  trx: Transaction<Database>,
  computed: Computed,
  ports: Pick<EnginePorts, 'alerts' | 'ledgerPorts' | 'zoneWarnings'>,
): Promise<{ measurementRows: number; reportRows: number }> {
  const { facilityId, from, to, timings } = computed.request;
  const rIds = computed.replaceReportFieldIds;
  await lockShipValues(trx, facilityId);
  const measurementRows = await step(timings, 'store measurement values', () =>
    storeMeasurementValues(trx, computed),
  );
  const reportRows = await step(timings, 'store report values', () => storeReportValues(trx, computed));
  await step(timings, 'store events', () =>
    storeComplianceEvents(trx, facilityId, computed.events, ports.alerts),
  );
  const ledger = await step(timings, 'port calls and voyages', async () =>
    deriveLedger(
      trx,
      await loadLedgerConfig(trx, facilityId),
      {
        from,
        to,
        recomputed: computed.request.measurementFieldIds,
        seriesOf: fieldSeriesOf(computed.measurement, (fieldId) =>
          readMeasurementValues(trx, facilityId, fieldId, from, to),
        ),
      },
      ports.ledgerPorts,
    ),
  );
  await step(timings, 'store port calls and voyages', () => storeLedger(trx, ledger));
  await step(timings, 'daily roll-up', async () => {
    if (rIds === 'all' || rIds.length > 0)
      await refreshDailyRollup(trx, facilityId, rIds, new Date(from), new Date(to - 1));
  });
  await step(timings, 'zone warnings', () => ports.zoneWarnings.evaluate(trx, facilityId));
  return { measurementRows, reportRows };
}
