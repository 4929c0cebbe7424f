import { describe, expect, it } from 'vitest';
import { DEFAULT_DELIMITED_CONFIGURATION } from '@portal/contracts/readers';
import { niceScale, parseDataFile, sampleChannels } from './index';

async function sampleOf(text: string, configuration = {}) {
  const parsed = await parseDataFile(
    { fileName: 'sample.csv', content: Buffer.from(text) },
    { readerId: 'delimited-text', configuration: { ...DEFAULT_DELIMITED_CONFIGURATION, ...configuration } },
    { utcTimezoneOffsetInMinutes: 0 },
  );
  return sampleChannels(parsed);
}

describe('sampleChannels', () => {
  it('describes each channel of a sample file: type, unit, decimals, sample range and axis range', async () => {
    const text = [
      'Timestamp;SO2;Pumps;Running;Mode;Serviced',
      ';ppm;;;;',
      '2026-03-01 10:00:00;3,2;1;on;auto;2026-02-01 00:00:00',
      '2026-03-01 10:00:10;97,55;4;off;manual;',
      '2026-03-01 10:00:20;50,10;2;on;;2026-02-15 00:00:00',
    ].join('\n');
    const raw = await sampleOf(text, { delimiter: ';', decimalSeparator: ',', unitRow: 2, firstDataRow: 3 });
    expect(raw).toEqual([
      {
        channel: 'SO2',
        description: null,
        dataType: 'Double',
        unit: 'ppm',
        decimals: 2,
        minSampleValue: 3.2,
        maxSampleValue: 97.55,
        minscale: 0,
        maxscale: 100,
      },
      {
        channel: 'Pumps',
        description: null,
        dataType: 'Integer',
        unit: null,
        decimals: 0,
        minSampleValue: 1,
        maxSampleValue: 4,
        minscale: 1,
        maxscale: 4,
      },
      {
        channel: 'Running',
        description: null,
        dataType: 'Boolean',
        unit: null,
        decimals: 0,
        minSampleValue: 0,
        maxSampleValue: 1,
        minscale: 0,
        maxscale: 1,
      },
      {
        channel: 'Mode',
        description: null,
        dataType: 'String',
        unit: null,
        decimals: 0,
        minSampleValue: null,
        maxSampleValue: null,
        minscale: null,
        maxscale: null,
      },
      {
        channel: 'Serviced',
        description: null,
        dataType: 'UTCDateTime',
        unit: null,
        decimals: 0,
        minSampleValue: Date.UTC(2026, 1, 1),
        maxSampleValue: Date.UTC(2026, 1, 15),
        minscale: null,
        maxscale: null,
      },
    ]);
  });

  it('answers no range for a channel without values', async () => {
    const [empty] = await sampleOf('Timestamp,A\n2026-03-01 10:00:00,\n');
    expect(empty).toMatchObject({
      dataType: 'Double',
      minSampleValue: null,
      maxSampleValue: null,
      minscale: null,
      maxscale: null,
    });
  });
});

describe('niceScale', () => {
  it('rounds outwards to steps of 1, 2 or 5 times a power of ten', () => {
    expect(niceScale(3.2, 97.5)).toEqual({ minscale: 0, maxscale: 100 });
    expect(niceScale(1013, 1029)).toEqual({ minscale: 1010, maxscale: 1030 });
    expect(niceScale(0.0012, 0.0047)).toEqual({ minscale: 0.001, maxscale: 0.005 });
    expect(niceScale(-40.5, -12)).toEqual({ minscale: -50, maxscale: -10 });
  });

  it('opens a range around a constant', () => {
    expect(niceScale(50, 50)).toEqual({ minscale: 44, maxscale: 56 });
    expect(niceScale(0, 0)).toEqual({ minscale: 0, maxscale: 1 });
  });
});
