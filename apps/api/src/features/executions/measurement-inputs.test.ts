import { describe, expect, it } from 'vitest';
import { calculationInputs, heldChannel, type InputRequest } from './measurement-inputs';
import type { MeasurementCalc } from './plan';
import { testPlan } from './test-plan';

const M = 60_000;
const FROM = Date.UTC(2025, 0, 1);
const channel = { id: 'ch-load', data_source_id: 'ds', source: 'load', name: 'LOAD' };
const samples = {
  rawBySource: new Map([
    [
      'ds',
      { timestamps: Float64Array.from([FROM, FROM + M]), columns: { load: Float64Array.from([5, NaN]) } },
    ],
  ]),
};
const plan = testPlan(FROM, FROM + 10 * M, {
  channelById: new Map([[channel.id, channel]]),
  fieldName: new Map([['f-ratio', 'RATIO']]),
});
const calc = (inputIds: string[]): MeasurementCalc => ({
  id: 'c',
  fieldId: 'f-out',
  version: 1,
  revision: 0,
  interval: 60,
  preload: 120,
  inputIds,
  algorithm: 'return 1;',
  outputType: 'Double',
  validFrom: -Infinity,
  validTo: Infinity,
  approvedOn: 0,
});
const axis = Float64Array.from([FROM, FROM + M, FROM + 2 * M, FROM + 3 * M]);
const request = (more: Partial<InputRequest>): InputRequest => ({
  plan,
  samples,
  calc: calc(['ch-load', 'f-ratio']),
  inputNames: ['LOAD', 'RATIO'],
  what: 'Measurement field OUT, calculation 1.0',
  axis,
  seriesOf: () => Promise.resolve({ timestamps: axis.subarray(1, 2), values: Float64Array.from([0.5]) }),
  ...more,
});

describe('measurement field inputs', () => {
  it('holds a raw channel over its blanks within the preload, and is all null without samples', () => {
    expect(Array.from(heldChannel(samples, channel, axis, 120))).toEqual([5, 5, 5, NaN]);
    expect(Array.from(heldChannel(samples, undefined, axis, 120))).toEqual([NaN, NaN, NaN, NaN]);
  });

  it('gives each input the calculation reads its column on the axis, and leaves out the others', async () => {
    const inputs = await calculationInputs(request({}));
    expect(Object.keys(inputs)).toEqual(['LOAD', 'RATIO']);
    expect(Array.from(inputs.RATIO!)).toEqual([NaN, 0.5, 0.5, 0.5]);
    expect(Object.keys(await calculationInputs(request({ inputNames: ['RATIO'] })))).toEqual(['RATIO']);
  });

  it('joins the stored values before the period for a rolling window reaching back there', async () => {
    const before = Float64Array.from([FROM - 2 * M, FROM - M]);
    const asked: [number, number][] = [];
    const inputs = await calculationInputs(
      request({
        axis: Float64Array.from([FROM - M, ...axis]),
        readHistory: (_id, from, to) => {
          asked.push([from - FROM, to - FROM]);
          return Promise.resolve({ timestamps: before, values: Float64Array.from([0.1, 0.2]) });
        },
      }),
    );
    // From the preload before the axis's first target to the period's start.
    expect(asked).toEqual([[-3 * M, 0]]);
    expect(Array.from(inputs.RATIO!)).toEqual([0.2, 0.2, 0.5, 0.5, 0.5]);
  });

  it('fails the execution on an input that is neither a channel nor a measurement field', async () => {
    await expect(calculationInputs(request({ calc: calc(['gone']), inputNames: ['gone'] }))).rejects.toThrow(
      'Measurement field OUT, calculation 1.0: input gone is neither a channel of the ship nor a measurement field',
    );
  });
});
