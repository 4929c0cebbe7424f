import { describe, expect, it } from 'vitest';
import { ledgerConfigOf } from './config';
import type { LedgerChannelRow, LedgerConfigRows } from './types';

const fields = ['LATITUDE', 'LONGITUDE', 'SHIP_SPEED', 'FUEL_FLOW', 'SCRUBBER_FUEL', 'OTHER'].map((name) => ({
  id: `f-${name.toLowerCase()}`,
  name,
}));
const channel = (id: string, more: Partial<LedgerChannelRow> = {}): LedgerChannelRow => ({
  id,
  data_source_id: 'logger',
  source: id.toUpperCase(),
  name: id.toUpperCase(),
  consumer: null,
  fuel_type_source: null,
  fuel_type: null,
  fuel_type_channel_id: null,
  ...more,
});
const rows = (more: Partial<LedgerConfigRows> = {}): LedgerConfigRows => ({
  facilityId: 'ship',
  organizationId: 'org',
  dataFrom: 1,
  dataTo: 2,
  fields,
  calculations: ['latitude', 'longitude', 'fuel_flow'].map((f) => ({
    measurement_field_id: `f-${f}`,
    input_ids: [`${f}`],
  })),
  channels: [],
  primaryDataSourceId: 'logger',
  ...more,
});

describe('ledger configuration', () => {
  it('reads the position fields that have an approved calculation, and FUEL_FLOW as main engine fuel of unknown type without a mapping', () => {
    const config = ledgerConfigOf(rows());
    expect(config).toMatchObject({
      latitudeFieldId: 'f-latitude',
      longitudeFieldId: 'f-longitude',
      speed: null,
      scrubberFuelFieldId: undefined,
      flows: [
        {
          id: 'f-fuel_flow',
          consumer: 'MAIN_ENGINE',
          read: { kind: 'field', fieldId: 'f-fuel_flow' },
          fuel: { kind: 'unknown' },
        },
      ],
    });
    expect([...config.inputFieldIds].sort()).toEqual(['f-fuel_flow', 'f-latitude', 'f-longitude']);
  });

  it("takes the mapped channels as flows, through their raw field when one reads them, with the mapping's fuel type", () => {
    const config = ledgerConfigOf(
      rows({
        calculations: [
          { measurement_field_id: 'f-latitude', input_ids: ['x'] },
          { measurement_field_id: 'f-fuel_flow', input_ids: ['me'] },
        ],
        channels: [
          channel('me', { consumer: 'MAIN_ENGINE', fuel_type_source: 'fixed', fuel_type: 'HFO' }),
          channel('ae', {
            consumer: 'AUX_ENGINE',
            fuel_type_source: 'channel',
            fuel_type_channel_id: 'code',
          }),
          channel('boiler', { consumer: 'BOILER', fuel_type_source: 'change-overs' }),
          channel('code'),
          channel('ship_speed', { data_source_id: 'other' }),
        ],
      }),
    );
    expect(config.flows.map((f) => [f.id, f.read.kind, f.fuel])).toEqual([
      ['me', 'field', { kind: 'fixed', fuelType: 'HFO' }],
      [
        'ae',
        'channel',
        { kind: 'channel', channel: { id: 'code', dataSourceId: 'logger', source: 'CODE', name: 'CODE' } },
      ],
      ['boiler', 'channel', { kind: 'change-overs' }],
    ]);
    // No SHIP_SPEED field with a calculation: the channel of that name.
    expect(config.speed).toMatchObject({ kind: 'channel', channel: { id: 'ship_speed' } });
    expect(config.longitudeFieldId).toBeUndefined();
  });

  it('prefers the primary data source for a channel read by name, and a fuel type channel that is gone is unknown', () => {
    const config = ledgerConfigOf(
      rows({
        channels: [
          channel('speed-2', { name: 'SHIP_SPEED', data_source_id: 'other' }),
          channel('speed-1', { name: 'ship_speed', data_source_id: 'logger' }),
          channel('me', {
            consumer: 'MAIN_ENGINE',
            fuel_type_source: 'channel',
            fuel_type_channel_id: 'gone',
          }),
        ],
      }),
    );
    expect(config.speed).toMatchObject({ kind: 'channel', channel: { id: 'speed-1' } });
    expect(config.flows[0]!.fuel).toEqual({ kind: 'unknown' });
  });
});
