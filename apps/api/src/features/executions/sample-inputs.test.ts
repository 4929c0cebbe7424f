import { describe, expect, it } from 'vitest';
import type { Channel, MeasurementCalc } from './plan';
import { countInputValues, inputChannels, missingInputsReason } from './sample-inputs';
import { testPlan } from './test-plan';

const DAY = 86_400_000;
const FROM = Date.UTC(2025, 2, 8);
const channel = (name: string, dataSourceId = 'ds'): Channel => ({
  id: `ch-${name}`,
  data_source_id: dataSourceId,
  source: name.toLowerCase(),
  name,
});
const calc = (fieldId: string, inputIds: string[]): MeasurementCalc => ({
  id: `c-${fieldId}`,
  fieldId,
  version: 1,
  revision: 0,
  interval: 60,
  preload: 0,
  inputIds,
  algorithm: 'return 1;',
  outputType: 'Double',
  validFrom: -Infinity,
  validTo: Infinity,
  approvedOn: 0,
});

/** Two fields: RATIO reads SO2_PPM and CO2_PCT, DOUBLE reads RATIO (a field, not a channel). */
function ratioPlan(channels: Channel[], dataSourceNames = new Map([['ds', 'Main logger']])) {
  return testPlan(FROM, FROM + DAY, {
    channels,
    channelById: new Map(channels.map((c) => [c.id, c])),
    dataSourceNames,
    fieldName: new Map([
      ['f-ratio', 'RATIO'],
      ['f-double', 'DOUBLE'],
    ]),
    measurementCalcsByField: new Map([
      [
        'f-ratio',
        [
          calc(
            'f-ratio',
            channels.map((c) => c.id),
          ),
        ],
      ],
      ['f-double', [calc('f-double', ['f-ratio'])]],
    ]),
    order: ['f-ratio', 'f-double'],
  });
}

describe('all inputs missing', () => {
  const so2 = channel('SO2_PPM');
  const co2 = channel('CO2_PCT');
  const targets = Float64Array.from([FROM, FROM + 60_000]);
  const read = (columns: Record<string, number[]>) =>
    new Map([
      [
        'ds',
        {
          timestamps: targets,
          columns: Object.fromEntries(Object.entries(columns).map(([k, v]) => [k, Float64Array.from(v)])),
        },
      ],
    ]);

  it('finds the channels the recomputed calculations read, each once, and counts their values', () => {
    const plan = ratioPlan([so2, co2]);
    expect(inputChannels(plan).map((c) => c.name)).toEqual(['SO2_PPM', 'CO2_PCT']);
    expect(countInputValues([so2, co2], read({ so2_ppm: [1, NaN], co2_pct: [NaN, NaN] }))).toBe(1);
    // A column the file does not have counts nothing.
    expect(countInputValues([so2, co2], read({ other: [1, 2] }))).toBe(0);
  });

  it('fails with a reason naming the channels, the period and the data source when none has a value', () => {
    const plan = ratioPlan([so2, co2]);
    expect(missingInputsReason(plan, [so2, co2], { primaryTimestamps: targets, inputValues: 0 })).toBe(
      'None of the mapped channels (CO2_PCT, SO2_PPM) has a value between 2025.03.08 00:00 and 2025.03.09 00:00 (UTC); check the channel mappings of data source Main logger',
    );
  });

  it('shortens a long list of channels and names every data source', () => {
    const many = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'].map((n, i) => channel(n, i % 2 ? 'ds2' : 'ds'));
    const plan = ratioPlan(
      many,
      new Map([
        ['ds', 'Main logger'],
        ['ds2', 'Bridge'],
      ]),
    );
    expect(missingInputsReason(plan, many, { primaryTimestamps: targets, inputValues: 0 })).toBe(
      'None of the mapped channels (A, B, C, D, E, F, … (8 in all)) has a value between 2025.03.08 00:00 and 2025.03.09 00:00 (UTC); check the channel mappings of data sources Main logger, Bridge',
    );
  });

  it('is no failure when one input has a value, when there is no timestamp to compute at, or when no channel is read', () => {
    const plan = ratioPlan([so2, co2]);
    expect(missingInputsReason(plan, [so2, co2], { primaryTimestamps: targets, inputValues: 1 })).toBeNull();
    // No samples at all in the period (a file deleted with its data, then recalculated): nothing to compute.
    expect(
      missingInputsReason(plan, [so2, co2], { primaryTimestamps: new Float64Array(0), inputValues: 0 }),
    ).toBeNull();
    expect(missingInputsReason(plan, [], { primaryTimestamps: targets, inputValues: 0 })).toBeNull();
  });
});
