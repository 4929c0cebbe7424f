import { describe, expect, it } from 'vitest';
import {
  FUEL_CHANNEL_MESSAGES as M,
  fuelChannelBodySchema,
  fuelChannelProblems,
  fuelTypeCode,
  isFuelFlowChannel,
  mergeFuelAttributes,
  NO_FUEL_ATTRIBUTES,
  type FuelChannelState,
} from './fuel-channels';

const channel = (over: Partial<FuelChannelState> & { key: string }): FuelChannelState => ({
  id: over.key,
  name: over.key.toUpperCase(),
  unit: 'kg/h',
  dataType: 'Double',
  editable: true,
  ...NO_FUEL_ATTRIBUTES,
  ...over,
});

const flow = (key: string, over: Partial<FuelChannelState> = {}) =>
  channel({ key, consumer: 'MAIN_ENGINE', fuelTypeSource: 'fixed', fuelType: 'HFO', ...over });

describe('fuel flow channels', () => {
  it('are numbers in kg/h however the logger writes the unit', () => {
    expect(isFuelFlowChannel({ unit: 'kg/h', dataType: 'Double' })).toBe(true);
    expect(isFuelFlowChannel({ unit: 'KGH', dataType: 'Integer' })).toBe(true);
    expect(isFuelFlowChannel({ unit: 'kg/hr', dataType: 'Double' })).toBe(true);
    expect(isFuelFlowChannel({ unit: 't/h', dataType: 'Double' })).toBe(false);
    expect(isFuelFlowChannel({ unit: null, dataType: 'Double' })).toBe(false);
    expect(isFuelFlowChannel({ unit: 'kg/h', dataType: 'String' })).toBe(false);
  });

  it('log a fuel type channel as the index of the fuel: 0 HFO, 2 MDO/MGO, 4 methanol', () => {
    expect([fuelTypeCode('HFO'), fuelTypeCode('MDO_MGO'), fuelTypeCode('METHANOL')]).toEqual([0, 2, 4]);
    expect(M.channelNotNumbers).toContain('0 HFO, 1 LFO, 2 MDO/MGO, 3 LNG, 4 Methanol');
  });
});

describe('a mapping body', () => {
  it('keeps what it leaves out and clears what it sets to null or empty', () => {
    const before = {
      ...NO_FUEL_ATTRIBUTES,
      consumer: 'BOILER' as const,
      fuelTypeSource: 'change-overs' as const,
    };
    const body = fuelChannelBodySchema.parse({ fuelTypeSource: 'fixed', fuelType: 'MDO_MGO', lngEngine: '' });
    expect(mergeFuelAttributes(body, before)).toEqual({
      consumer: 'BOILER',
      fuelTypeSource: 'fixed',
      fuelType: 'MDO_MGO',
      fuelTypeChannelId: null,
      lngEngine: null,
    });
    expect(mergeFuelAttributes(fuelChannelBodySchema.parse({ consumer: null }), before).consumer).toBeNull();
    expect(mergeFuelAttributes({})).toEqual(NO_FUEL_ATTRIBUTES);
  });

  it('refuses unknown codes with the choices named', () => {
    const result = fuelChannelBodySchema.safeParse({ consumer: 'SHAFT_GENERATOR', fuelType: 'VLSFO' });
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((i) => [i.path[0], i.message])).toEqual([
      ['consumer', M.consumer],
      ['fuelType', 'Choose the fuel: HFO, LFO, MDO/MGO, LNG, Methanol'],
    ]);
  });
});

describe('fuelChannelProblems', () => {
  it('accepts each way of giving the fuel type', () => {
    expect(
      fuelChannelProblems([
        flow('me'),
        flow('ae', {
          consumer: 'AUX_ENGINE',
          fuelTypeSource: 'channel',
          fuelType: null,
          fuelTypeChannelId: 'ft',
        }),
        flow('blr', { consumer: 'BOILER', fuelTypeSource: 'change-overs', fuelType: null }),
        flow('gas', { fuelType: 'LNG', lngEngine: 'OTTO_SLOW_SPEED' }),
        channel({ key: 'ft', unit: null, dataType: 'Integer' }),
        channel({ key: 'so2', unit: 'ppm' }),
      ]),
    ).toEqual([]);
  });

  it('keeps a consumer to fuel flow channels in kg/h and says what the channel is', () => {
    expect(fuelChannelProblems([flow('ww', { unit: 't/h' }), flow('txt', { dataType: 'String' })])).toEqual([
      {
        key: 'ww',
        field: 'consumer',
        message: "Only a fuel flow channel in kg/h has a consumer; this channel's unit is t/h",
      },
      {
        key: 'txt',
        field: 'consumer',
        message: 'Only a fuel flow channel (a number in kg/h) has a consumer; this channel is String',
      },
    ]);
    expect(fuelChannelProblems([flow('none', { unit: ' ' })])[0]!.message).toBe(
      "Only a fuel flow channel in kg/h has a consumer; this channel's unit is not set",
    );
  });

  it('wants the consumer first, then the source, then what the source needs', () => {
    const problems = fuelChannelProblems([
      channel({ key: 'a', fuelType: 'HFO' }),
      flow('b', { fuelTypeSource: null, fuelType: null }),
      flow('c', { fuelType: null }),
      flow('d', { fuelTypeSource: 'change-overs' }),
      flow('e', { fuelTypeSource: 'channel', fuelType: null }),
      flow('f', { fuelTypeChannelId: 'a' }),
      flow('g', { lngEngine: 'LBSI' }),
    ]);
    expect(problems.map((p) => [p.key, p.field, p.message])).toEqual([
      ['a', 'consumer', M.consumerFirst],
      ['b', 'fuelTypeSource', M.sourceRequired],
      ['c', 'fuelType', M.fuelRequired],
      ['d', 'fuelType', M.fuelOnlyWhenFixed],
      ['e', 'fuelTypeChannelId', M.channelRequired],
      ['f', 'fuelTypeChannelId', M.channelOnlyWhenChannel],
      ['g', 'lngEngine', M.lngEngineNotLng],
    ]);
  });

  it('reads the fuel type from another channel of the ship that logs numbers and is no flow itself', () => {
    const reader = (target: string) =>
      flow('r', { fuelTypeSource: 'channel', fuelType: null, fuelTypeChannelId: target });
    const problems = (target: string, ...others: FuelChannelState[]) =>
      fuelChannelProblems([reader(target), ...others]).map((p) => p.message);
    expect(problems('elsewhere')).toEqual([M.channelNotOfShip]);
    expect(problems('r')).toEqual([M.channelItself]);
    expect(problems('me', flow('me'))).toEqual([M.channelIsFlow]);
    expect(problems('txt', channel({ key: 'txt', dataType: 'String' }))).toEqual([M.channelNotNumbers]);
  });

  it('names the problem on the channel the change sets when the reader is not changed', () => {
    const reader = flow('r', {
      name: 'ME_FUEL',
      editable: false,
      fuelTypeSource: 'channel',
      fuelType: null,
      fuelTypeChannelId: 'ft',
    });
    expect(fuelChannelProblems([reader, flow('ft', { unit: 'kg/h' })])).toEqual([
      {
        key: 'ft',
        field: 'consumer',
        message: 'ME_FUEL reads its fuel type from this channel: it cannot be a fuel flow channel itself',
      },
    ]);
    expect(fuelChannelProblems([reader, channel({ key: 'ft', dataType: 'Boolean' })])[0]).toMatchObject({
      key: 'ft',
      field: 'dataType',
    });
    // A reader nobody changes and a target nobody changes: nothing this change can be blamed for.
    expect(fuelChannelProblems([reader, flow('ft', { editable: false })])).toEqual([]);
  });

  it('refuses to remove a fuel type channel another still reads, naming both', () => {
    const readers = [
      flow('me', { name: 'FUEL_FLOW', fuelTypeSource: 'channel', fuelType: null, fuelTypeChannelId: 'ft' }),
      flow('ae', {
        name: 'AE_FUEL_FLOW',
        fuelTypeSource: 'channel',
        fuelType: null,
        fuelTypeChannelId: 'ft',
      }),
    ];
    expect(fuelChannelProblems(readers, [{ key: 'x', id: 'ft', name: 'FUEL_TYPE' }])).toEqual([
      {
        key: 'x',
        field: 'id',
        message:
          'FUEL_TYPE logs the fuel type of FUEL_FLOW, AE_FUEL_FLOW: give them another fuel type source first',
      },
    ]);
    expect(fuelChannelProblems([readers[0]!], [{ key: 'x', id: 'other', name: 'SO2' }])).toEqual([
      { key: 'me', field: 'fuelTypeChannelId', message: M.channelNotOfShip },
    ]);
  });
});
