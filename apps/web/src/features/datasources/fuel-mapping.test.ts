import { describe, expect, it } from 'vitest';
import type { DataSourceChannel } from '@portal/contracts/datasources';
import { FUEL_CHANNEL_MESSAGES, NO_FUEL_ATTRIBUTES } from '@portal/contracts/fuel-channels';
import {
  fuelAttributesOf,
  fuelFieldErrors,
  fuelFormOf,
  fuelTypeChannelChoices,
  showsFuelFields,
  showsLngEngine,
  type FuelForm,
} from './fuel-mapping';

const channel = (id: string, patch: Partial<DataSourceChannel> = {}): DataSourceChannel => ({
  id,
  dataSourceId: 'ds1',
  localId: null,
  source: id,
  name: id,
  fullName: `Logger.${id}`,
  dataType: 'Double',
  unit: null,
  description: null,
  qualityScore: null,
  isCustom: false,
  ...NO_FUEL_ATTRIBUTES,
  ...patch,
});

const ship = [
  channel('FUEL_FLOW', { unit: 'kg/h', consumer: 'MAIN_ENGINE', fuelTypeSource: 'fixed', fuelType: 'HFO' }),
  channel('FUEL_TYPE', { dataType: 'Integer' }),
  channel('SCRUBBER_MODE', { dataType: 'String' }),
  channel('BOILER_FUEL_FLOW', { unit: 'kg/h' }),
];
const boiler = { id: 'BOILER_FUEL_FLOW', name: 'BOILER_FUEL_FLOW', unit: 'kg/h', dataType: 'Double' };
const form = (patch: Partial<FuelForm>): FuelForm => ({ ...fuelFormOf(undefined), ...patch });

describe("a fuel flow channel's fields in the mapping panel", () => {
  it('show for a number channel in kg/h, or one that has a consumer already', () => {
    expect(showsFuelFields({ unit: 'kg/h', dataType: 'Double' }, form({}))).toBe(true);
    expect(showsFuelFields({ unit: 'kg/h', dataType: 'String' }, form({}))).toBe(false);
    expect(showsFuelFields({ unit: 't/h', dataType: 'Double' }, form({}))).toBe(false);
    expect(showsFuelFields({ unit: 'm3/h', dataType: 'Double' }, form({ consumer: 'BOILER' }))).toBe(true);
  });

  it('send only what the fuel type source uses, and nothing without a consumer', () => {
    const typed = form({
      consumer: 'BOILER',
      fuelTypeSource: 'channel',
      fuelType: 'HFO',
      fuelTypeChannelId: 'FUEL_TYPE',
      lngEngine: 'LBSI',
    });
    expect(fuelAttributesOf(typed)).toEqual({
      consumer: 'BOILER',
      fuelTypeSource: 'channel',
      fuelType: null,
      fuelTypeChannelId: 'FUEL_TYPE',
      lngEngine: 'LBSI',
    });
    expect(fuelAttributesOf({ ...typed, fuelTypeSource: 'fixed' })).toEqual({
      consumer: 'BOILER',
      fuelTypeSource: 'fixed',
      fuelType: 'HFO',
      fuelTypeChannelId: null,
      lngEngine: null,
    });
    expect(fuelAttributesOf({ ...typed, consumer: '' })).toEqual(NO_FUEL_ATTRIBUTES);
  });

  it('ask for the LNG engine only when the consumer may burn LNG', () => {
    expect(showsLngEngine(form({ consumer: 'MAIN_ENGINE', fuelTypeSource: 'fixed', fuelType: 'LNG' }))).toBe(
      true,
    );
    expect(showsLngEngine(form({ consumer: 'MAIN_ENGINE', fuelTypeSource: 'fixed', fuelType: 'HFO' }))).toBe(
      false,
    );
    expect(showsLngEngine(form({ consumer: 'MAIN_ENGINE', fuelTypeSource: 'change-overs' }))).toBe(true);
    expect(showsLngEngine(form({ consumer: '', fuelTypeSource: 'channel' }))).toBe(false);
  });

  it('offer as fuel type channels the ship’s other number channels that are no fuel flow', () => {
    expect(fuelTypeChannelChoices(ship, 'BOILER_FUEL_FLOW').map((c) => c.id)).toEqual(['FUEL_TYPE']);
    expect(fuelTypeChannelChoices(ship, undefined).map((c) => c.id)).toEqual([
      'BOILER_FUEL_FLOW',
      'FUEL_TYPE',
    ]);
  });

  it("name at each field the API's message for what it would refuse", () => {
    expect(fuelFieldErrors(boiler, form({ consumer: 'BOILER' }), ship)).toEqual({
      fuelTypeSource: FUEL_CHANNEL_MESSAGES.sourceRequired,
    });
    expect(fuelFieldErrors(boiler, form({ consumer: 'BOILER', fuelTypeSource: 'fixed' }), ship)).toEqual({
      fuelType: FUEL_CHANNEL_MESSAGES.fuelRequired,
    });
    expect(fuelFieldErrors(boiler, form({ consumer: 'BOILER', fuelTypeSource: 'channel' }), ship)).toEqual({
      fuelTypeChannelId: FUEL_CHANNEL_MESSAGES.channelRequired,
    });
    expect(
      fuelFieldErrors(
        boiler,
        form({ consumer: 'BOILER', fuelTypeSource: 'channel', fuelTypeChannelId: 'FUEL_FLOW' }),
        ship,
      ),
    ).toEqual({ fuelTypeChannelId: FUEL_CHANNEL_MESSAGES.channelIsFlow });
    expect(
      fuelFieldErrors(
        boiler,
        form({ consumer: 'BOILER', fuelTypeSource: 'channel', fuelTypeChannelId: 'SCRUBBER_MODE' }),
        ship,
      ),
    ).toEqual({ fuelTypeChannelId: FUEL_CHANNEL_MESSAGES.channelNotNumbers });
    expect(
      fuelFieldErrors(
        boiler,
        form({ consumer: 'BOILER', fuelTypeSource: 'fixed', fuelType: 'MDO_MGO' }),
        ship,
      ),
    ).toEqual({});
  });

  it('refuse a consumer on a channel that is no fuel flow in kg/h, and one read as a fuel type channel', () => {
    expect(
      fuelFieldErrors(
        { id: 'SCRUBBER_MODE', name: 'SCRUBBER_MODE', unit: '', dataType: 'String' },
        form({ consumer: 'OTHER', fuelTypeSource: 'change-overs' }),
        ship,
      ),
    ).toEqual({ consumer: FUEL_CHANNEL_MESSAGES.notFlow(null, 'String') });
    const readers = [
      ...ship,
      channel('AE_FUEL_FLOW', {
        unit: 'kg/h',
        consumer: 'AUX_ENGINE',
        fuelTypeSource: 'channel',
        fuelTypeChannelId: 'FUEL_TYPE',
      }),
    ];
    expect(
      fuelFieldErrors(
        { id: 'FUEL_TYPE', name: 'FUEL_TYPE', unit: 'kg/h', dataType: 'Integer' },
        form({ consumer: 'OTHER', fuelTypeSource: 'change-overs' }),
        readers,
      ),
    ).toEqual({
      consumer: `${FUEL_CHANNEL_MESSAGES.readBy(['AE_FUEL_FLOW'])}: it cannot be a fuel flow channel itself`,
    });
  });
});
