import { describe, expect, it } from 'vitest';
import {
  channelMappingSchema,
  dataSourceSchema,
  validateChannelMapping,
  validateCustomChannel,
  validateDataSource,
} from './data-source';
import { QUALITY_SCORE_MESSAGE } from './fields';

const valid = {
  name: 'Engine_Logger_1',
  dataSourceReaderId: 'delimited-text',
  dataSourceReaderConfiguration: '{"delimiter":";"}',
  measureFrequencyInSeconds: '60',
  utcTimezoneOffsetInMinutes: '0',
  note: null,
  isPrimary: true,
};

describe('data source form', () => {
  it('converts numeric text and fills defaults', () => {
    expect(dataSourceSchema.parse(valid)).toEqual({
      ...valid,
      measureFrequencyInSeconds: 60,
      utcTimezoneOffsetInMinutes: 0,
      note: '',
    });
    expect(dataSourceSchema.parse({ ...valid, isPrimary: undefined }).isPrimary).toBe(false);
  });

  it.each([
    [{ name: '' }, { name: 'Name is required' }],
    [{ name: 'Engine logger' }, { name: 'Name has forbidden characters' }],
    [{ name: 'Fuel-flow' }, { name: 'Name has forbidden characters' }],
    [{ name: 'Måler' }, { name: 'Name has forbidden characters' }],
    [{ dataSourceReaderId: '' }, { dataSourceReaderId: 'Reader is required' }],
    [
      { dataSourceReaderConfiguration: '' },
      { dataSourceReaderConfiguration: 'Provide a parser configuration' },
    ],
    [
      { dataSourceReaderConfiguration: '{delimiter' },
      { dataSourceReaderConfiguration: 'The parser configuration must be valid JSON' },
    ],
    [{ measureFrequencyInSeconds: '0' }, { measureFrequencyInSeconds: 'Frequency must be more than 0' }],
    [{ measureFrequencyInSeconds: -10 }, { measureFrequencyInSeconds: 'Frequency must be more than 0' }],
    [{ measureFrequencyInSeconds: '0.5' }, { measureFrequencyInSeconds: 'Must be a whole number' }],
    [{ measureFrequencyInSeconds: '' }, { measureFrequencyInSeconds: 'Frequency is required' }],
    [{ measureFrequencyInSeconds: 'often' }, { measureFrequencyInSeconds: 'Must be a number' }],
    [{ utcTimezoneOffsetInMinutes: '' }, { utcTimezoneOffsetInMinutes: 'Timezone offset is required' }],
    [{ utcTimezoneOffsetInMinutes: null }, { utcTimezoneOffsetInMinutes: 'Timezone offset is required' }],
    [{ utcTimezoneOffsetInMinutes: '60.5' }, { utcTimezoneOffsetInMinutes: 'Must be a whole number' }],
    [
      { utcTimezoneOffsetInMinutes: 841 },
      { utcTimezoneOffsetInMinutes: 'Offset must be between -720 and 840 minutes' },
    ],
  ])('%j -> %j', (change, errors) => {
    expect(validateDataSource({ ...valid, ...change })).toEqual(errors);
  });

  it('allows a zero offset, negative offsets and the extremes', () => {
    for (const offset of [0, -300, -720, 840, '330']) {
      expect(validateDataSource({ ...valid, utcTimezoneOffsetInMinutes: offset })).toEqual({});
    }
  });

  it('allows underscores and digits in names', () => {
    expect(validateDataSource({ ...valid, name: '_1' })).toEqual({});
  });
});

describe('channel mapping and custom channel', () => {
  const channel = {
    source: 'ME1 FO flow',
    name: 'FUEL_FLOW',
    dataType: 'Double',
    unit: 'kg/h',
    qualityScore: 4,
  };

  it('accepts a valid mapping and defaults the texts', () => {
    expect(channelMappingSchema.parse(channel)).toEqual({ ...channel, description: '' });
  });

  it('requires a name with allowed characters and a data type', () => {
    expect(validateChannelMapping({ ...channel, name: 'fuel flow', dataType: '' })).toEqual({
      name: 'Name has forbidden characters',
      dataType: 'You have to select a data type',
    });
    expect(validateChannelMapping({ ...channel, name: '', dataType: 'Float' })).toEqual({
      name: 'Name is required',
      dataType: 'You have to select a data type',
    });
  });

  it('requires a source for a custom channel only', () => {
    expect(validateCustomChannel({ ...channel, source: ' ' })).toEqual({ source: 'Source is required' });
    expect(validateChannelMapping({ ...channel, source: '' })).toEqual({});
  });

  it('takes a quality score from 0 to 5 in whole stars', () => {
    for (const score of [0, 5, '3', null, ''])
      expect(validateChannelMapping({ ...channel, qualityScore: score })).toEqual({});
    for (const score of [-1, 6, 2.5, 'five']) {
      expect(validateChannelMapping({ ...channel, qualityScore: score })).toEqual({
        qualityScore: QUALITY_SCORE_MESSAGE,
      });
    }
  });
});
