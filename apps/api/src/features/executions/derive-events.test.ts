import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_EVENT_RULES } from '@portal/contracts/events';
import { appendRecordBookEntries, insertEvents, type FieldSeries } from '../../storage';
import { storageGround } from '../../storage/test-ground';
import { EVENT_INPUT_FIELDS, deriveComplianceEvents, recordedFuelChanges } from './derive-events';
import type { MeasurementCalc } from './plan';
import type { DataHealthPort } from './ports';
import { testPlan } from './test-plan';

const FROM = Date.UTC(2025, 5, 1);
const M = 60_000;
const H = 60 * M;
const TO = FROM + 3 * H;

const calc = (fieldId: string): MeasurementCalc => ({
  id: `c-${fieldId}`,
  fieldId,
  version: 1,
  revision: 0,
  interval: 60,
  preload: 0,
  inputIds: [],
  algorithm: 'return 1;',
  outputType: 'Double',
  validFrom: -Infinity,
  validTo: Infinity,
  approvedOn: 0,
});

/** Three hours a minute apart in mid-Atlantic (no ECA), under way, the scrubber required; it stops 01:00-01:30. */
function inputs(): Record<keyof typeof EVENT_INPUT_FIELDS, FieldSeries> {
  const timestamps = Float64Array.from({ length: 180 }, (_, i) => FROM + i * M);
  const column = (value: (t: number, i: number) => number) => ({ timestamps, values: timestamps.map(value) });
  return {
    required: column(() => 1),
    running: column((t) => (t >= FROM + H && t < FROM + 90 * M ? 0 : 1)),
    ratio: column(() => 2),
    limit: column(() => 4.3),
    latitude: column((_, i) => 10 + i * 0.001),
    longitude: column((_, i) => -30 - i * 0.001),
  };
}

/** The window and the stored events are under test here, not data health's flags (its own tests). */
const NO_SENSOR_FAULTS: Pick<DataHealthPort, 'sensorFaults'> = { sensorFaults: () => [] };

describe('compliance events step', () => {
  let ground: Awaited<ReturnType<typeof storageGround>>;
  beforeAll(async () => {
    ground = await storageGround();
  }, 120_000);
  afterAll(() => ground?.database.close());

  // The input fields' ids (the stored values before and after the period are read by them: uuids).
  const keys = Object.keys(EVENT_INPUT_FIELDS) as (keyof typeof EVENT_INPUT_FIELDS)[];
  const idOf = Object.fromEntries(keys.map((k) => [k, randomUUID()])) as Record<
    (typeof keys)[number],
    string
  >;
  const planOf = (measurementFieldIds: 'all' | Set<string> = 'all') =>
    testPlan(FROM, TO, {
      request: {
        facilityId: ground.facilityId,
        from: FROM,
        to: TO,
        measurementFieldIds,
        reportFieldIds: 'all',
      },
      fieldName: new Map(keys.map((k) => [idOf[k], EVENT_INPUT_FIELDS[k]])),
      measurementCalcsByField: new Map(keys.map((k) => [idOf[k], [calc(idOf[k])]])),
      events: { ...testPlan(FROM, TO).events, dataEnd: TO },
    });
  const series = inputs();
  const seriesOf = (fieldId: string) => Promise.resolve(series[keys.find((k) => idOf[k] === fieldId)!]);
  const derive = (plan = planOf()) =>
    deriveComplianceEvents(ground.database.db, plan, seriesOf, NO_SENSOR_FAULTS);

  it('derives the events starting from the period on to the repeated rule’s window after it', async () => {
    const derivation = await derive();
    expect(derivation).toMatchObject({
      windowFrom: FROM,
      windowTo: TO + DEFAULT_EVENT_RULES.repeatedWindowHours * H,
    });
    const stop = derivation!.events.filter((e) => e.type === 'scrubber-off');
    expect(stop.map((e) => [e.start - FROM, e.end - FROM, e.classification])).toEqual([
      [H, 90 * M, 'malfunction'],
    ]);
    expect(
      derivation!.events.every((e) => e.start >= derivation!.windowFrom && e.start < derivation!.windowTo),
    ).toBe(true);
  });

  it('reaches back to the start of a stored event crossing the period’s start', async () => {
    await ground.database.db.transaction().execute((trx) =>
      insertEvents(trx, ground.facilityId, [
        {
          id: randomUUID(),
          columns: {
            type: 'scrubber-off',
            start_on: new Date(FROM - 2 * H),
            end_on: new Date(FROM + M),
            ongoing: false,
            worst_value: null,
            limit_value: null,
            start_latitude: null,
            start_longitude: null,
            end_latitude: null,
            end_longitude: null,
            classification: 'malfunction',
            report_required: true,
            channel: null,
            fault: null,
            rules: JSON.stringify(DEFAULT_EVENT_RULES),
          },
        },
      ]),
    );
    expect((await derive())!.windowFrom).toBe(FROM - 2 * H);
  });

  it('derives nothing when the execution recomputes none of the inputs, or the ship cannot require the scrubber', async () => {
    expect(await derive(planOf(new Set(['another-field'])))).toBeNull();
    const plan = planOf();
    plan.measurementCalcsByField.delete(idOf.required);
    expect(await derive(plan)).toBeNull();
  });

  it("reads the fuel change-overs from the record book as corrected, before the window's end", async () => {
    const entry = (
      kind: string,
      at: number,
      body: Record<string, unknown>,
      correctsId: string | null = null,
    ) => ({
      kind,
      occurredOn: new Date(at),
      recordedBy: null,
      recordedByName: 'Chief engineer',
      latitude: null,
      longitude: null,
      eventId: null,
      correctsId,
      body,
    });
    const { db } = ground.database;
    const [first] = await db
      .transaction()
      .execute((trx) =>
        appendRecordBookEntries(trx, ground.facilityId, [
          entry('fuel-change-over', FROM + H, { fuelSulfurPct: 0.1 }),
        ]),
      );
    await db
      .transaction()
      .execute((trx) =>
        appendRecordBookEntries(trx, ground.facilityId, [
          entry('fuel-change-over', FROM + 2 * H, { fuelSulfurPct: 2.5 }),
          entry('correction', FROM + 3 * H, { fuelSulfurPct: 0.5 }, first!.id),
          entry('fuel-change-over', FROM + 10 * H, { fuelSulfurPct: 0.1 }),
          entry('note', FROM + 2 * H, { text: 'Bunkering' }),
        ]),
      );
    expect(await recordedFuelChanges(db, ground.facilityId, FROM + 5 * H)).toEqual([
      { at: FROM + 2 * H, sulfurPct: 2.5 },
      { at: FROM + 3 * H, sulfurPct: 0.5 },
    ]);
  });
});
