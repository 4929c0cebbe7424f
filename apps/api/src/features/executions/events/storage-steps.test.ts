import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_EVENT_RULES } from '@portal/contracts/events';
import { defaultThreshold } from '@portal/contracts/data-health';
import { insertEvents, type FieldSeries } from '../../../storage';
import { storageGround } from '../../../storage/test-ground';
import type { MeasurementCalc } from '../plan';
import { eventSeriesReader } from './reader';
import { flaggedChannels } from './sensor-fault-inputs';
import { earlierTransients, eventWindow } from './window';

const FROM = Date.UTC(2025, 5, 1);
const M = 60_000;
const H = 60 * M;
const rules = DEFAULT_EVENT_RULES;

/** The events' sub-steps that read storage (recorded fuel changes: derive-events.test.ts), on the storage ground. */
describe('events sub-steps that read storage', () => {
  let ground: Awaited<ReturnType<typeof storageGround>>;
  beforeAll(async () => {
    ground = await storageGround();
  }, 120_000);
  afterAll(() => ground?.database.close());

  const store = (
    type: string,
    start: number,
    end: number,
    classification: string,
    channel: string | null = null,
  ) =>
    ground.database.db.transaction().execute((trx) =>
      insertEvents(trx, ground.facilityId, [
        {
          id: randomUUID(),
          columns: {
            type,
            start_on: new Date(start),
            end_on: new Date(end),
            ongoing: false,
            worst_value: null,
            limit_value: null,
            start_latitude: null,
            start_longitude: null,
            end_latitude: null,
            end_longitude: null,
            classification,
            report_required: false,
            channel,
            fault: null,
            rules: JSON.stringify(rules),
          },
        },
      ]),
    );

  it('takes the window from the period to the repeated rule’s window after it, read with a margin; a stored event crossing an edge widens it', async () => {
    const to = FROM + 3 * H;
    const margin = rules.dataGapMinutes * M + rules.stepSeconds * 1000;
    expect(await eventWindow(ground.database.db, ground.facilityId, { from: FROM, to }, rules)).toEqual({
      windowFrom: FROM,
      windowTo: to + 24 * H,
      readFrom: FROM - margin,
      readTo: to + 24 * H + margin,
    });
    await store('scrubber-off', FROM - 2 * H, FROM + M, 'malfunction');
    await store('scrubber-off', to + 24 * H - M, to + 26 * H, 'malfunction');
    const wider = await eventWindow(ground.database.db, ground.facilityId, { from: FROM, to }, rules);
    expect([wider.windowFrom, wider.windowTo]).toEqual([FROM - 2 * H, to + 26 * H + M]);
  });

  it("gathers the ship's transients of the day before the window per group of the repeated rule", async () => {
    const windowFrom = FROM + 30 * 24 * H;
    await store('scrubber-off', windowFrom - 2 * H, windowFrom - H, 'transient');
    await store('washwater-exceedance', windowFrom - 3 * H, windowFrom - H, 'repeated', 'WASHWATER_PH');
    await store('scrubber-off', windowFrom - 25 * H, windowFrom - 24.5 * H, 'transient');
    await store('scrubber-off', windowFrom - 4 * H, windowFrom - H, 'malfunction');
    expect(await earlierTransients(ground.database.db, ground.facilityId, windowFrom, rules)).toEqual({
      emission: [windowFrom - 2 * H],
      'washwater:WASHWATER_PH': [windowFrom - 3 * H],
    });
  });

  it('reads a field once: stored before and after the period around the computed middle; no field, nothing', async () => {
    let asked = 0;
    const middle: FieldSeries = {
      timestamps: Float64Array.from([FROM, FROM + M]),
      values: Float64Array.from([1, 2]),
    };
    const read = eventSeriesReader(
      ground.database.db,
      ground.facilityId,
      { from: FROM, to: FROM + H, readFrom: FROM - H, readTo: FROM + 2 * H },
      () => (asked++, Promise.resolve(middle)),
    );
    const field = ground.measurementFieldIds[0];
    expect([...(await read(field)).values]).toEqual([1, 2]);
    await read(field);
    expect(asked).toBe(1);
    expect((await read(undefined)).timestamps).toHaveLength(0);
  });

  it("asks data health about the compliance channels the ship computes, with the engine's load", async () => {
    const series: FieldSeries = {
      timestamps: Float64Array.from([FROM, FROM + M]),
      values: Float64Array.from([5, 5]),
    };
    const idOf = new Map([
      ['SO2_PPM', 'so2'],
      ['CO2_PCT', 'co2'],
      ['ENGINE_LOAD', 'load'],
    ]);
    let input: Parameters<Parameters<typeof flaggedChannels>[4]['sensorFaults']>[0] | undefined;
    const faults = await flaggedChannels(
      {
        measurementCalcsByField: new Map([['so2', [] as MeasurementCalc[]]]),
        events: { rules, dataEnd: null, thresholdOf: defaultThreshold },
      },
      idOf,
      (id) => Promise.resolve(id ? series : { timestamps: new Float64Array(0), values: new Float64Array(0) }),
      series.timestamps,
      {
        sensorFaults: (given) => {
          input = given;
          return [{ channel: 'SO2_PPM', kind: 'stale', from: FROM, to: FROM + M, value: 5 }];
        },
      },
    );
    expect(faults).toHaveLength(1);
    expect(input!.channels.map((c) => c.channel)).toEqual(['SO2_PPM']);
    expect(input).toMatchObject({ engineLoad: series, fuelFlow: null, from: FROM, until: FROM + M });
  });
});
