import { describe, expect, it } from 'vitest';
import { NO_FUEL_ATTRIBUTES } from '@portal/contracts/fuel-channels';
import type { DataSourceChannel, RawChannel, SuggestedMappings } from '@portal/contracts/datasources';
import {
  acceptAll,
  applySummary,
  changeColumn,
  changedChoices,
  initialChoices,
  mappingListAfter,
  removedMappings,
  restoreList,
  setAccepted,
} from './suggestions';

const raw = (channel: string, unit: string | null = null): RawChannel => ({
  channel,
  description: null,
  dataType: 'Double',
  unit,
  decimals: 1,
  minSampleValue: 0,
  maxSampleValue: 1,
  minscale: 0,
  maxscale: 1,
});

const mapping = (id: string, name: string, source: string): DataSourceChannel => ({
  id,
  dataSourceId: 'ds',
  localId: null,
  source,
  name,
  fullName: `Logger.${name}`,
  dataType: 'Double',
  unit: null,
  description: null,
  qualityScore: 0,
  isCustom: false,
  ...NO_FUEL_ATTRIBUTES,
});

/** An imported configuration (the demo logger's names) meeting a new logger's file. */
const channels = [
  mapping('m1', 'FUEL_FLOW', 'ME_FO_Flow_kgh'),
  mapping('m2', 'SO2_PPM', 'EGCS1_SO2_ppm'),
  mapping('m3', 'LATITUDE', 'GPS_Lat'),
  mapping('m4', 'SHIP_SPEED', 'GPS_SOG_kn'),
];
const result: SuggestedMappings = {
  fileName: 'AMS_TREND_20260309.csv',
  organizationId: 'org',
  acceptConfidence: 0.7,
  proposals: [
    {
      field: 'FUEL_FLOW',
      column: 'ME1_FO_FLOW_KGH',
      unit: 'KGH',
      confidence: 0.93,
      reasons: ['Known name'],
      mappingId: 'm1',
      matchesExisting: false,
      consumer: null,
      fuelType: null,
    },
    {
      field: 'SO2_PPM',
      column: 'SO2_OUT_PPM',
      unit: 'PPM',
      confidence: 0.55,
      reasons: ['Name like'],
      mappingId: 'm2',
      matchesExisting: false,
      consumer: null,
      fuelType: null,
    },
    {
      field: 'SCRUBBER_RUNNING',
      column: 'EGCS_RUN_STATUS',
      unit: null,
      confidence: 0.88,
      reasons: ['Name like'],
      mappingId: null,
      matchesExisting: false,
      consumer: null,
      fuelType: null,
    },
  ],
  unmatchedFields: [{ field: 'LATITUDE', mappingId: 'm3', source: 'GPS_Lat' }],
  unmappedColumns: [raw('GPS_LAT_DEG', 'deg')],
  columns: [raw('ME1_FO_FLOW_KGH'), raw('SO2_OUT_PPM'), raw('EGCS_RUN_STATUS'), raw('GPS_LAT_DEG', 'deg')],
  mappingsWithoutColumn: [
    { id: 'm3', name: 'LATITUDE', source: 'GPS_Lat', readByCalculation: true },
    { id: 'm4', name: 'SHIP_SPEED', source: 'GPS_SOG_kn', readByCalculation: false },
  ],
};

describe('suggested mapping choices', () => {
  it('start with the confident proposals accepted, the others and the unmatched fields to look at', () => {
    const choices = initialChoices(result);
    expect(choices.map((c) => [c.field, c.column, c.accepted])).toEqual([
      ['FUEL_FLOW', 'ME1_FO_FLOW_KGH', true],
      ['SO2_PPM', 'SO2_OUT_PPM', false],
      ['SCRUBBER_RUNNING', 'EGCS_RUN_STATUS', true],
      ['LATITUDE', null, false],
    ]);
    // Accept all takes every row that has a column; a row without one stays out.
    expect(acceptAll(choices).map((c) => c.accepted)).toEqual([true, true, true, false]);
  });

  it('turn into the list of mappings: changed sources keep their ids, new fields are added, unused mappings go', () => {
    let choices = acceptAll(initialChoices(result));
    choices = changeColumn(choices, 'LATITUDE', 'GPS_LAT_DEG');
    const list = mappingListAfter(channels, result, choices, true);
    expect(list).toEqual([
      expect.objectContaining({ id: 'm1', name: 'FUEL_FLOW', source: 'ME1_FO_FLOW_KGH' }),
      expect.objectContaining({ id: 'm2', name: 'SO2_PPM', source: 'SO2_OUT_PPM' }),
      expect.objectContaining({ id: 'm3', name: 'LATITUDE', source: 'GPS_LAT_DEG' }),
      { source: 'EGCS_RUN_STATUS', name: 'SCRUBBER_RUNNING', dataType: 'Boolean', unit: null },
    ]);
    expect(applySummary(channels, list)).toBe('Mappings: 3 changed, 1 added, 1 removed');
    // The column chosen instead of none proposed is offered as the organization's alias.
    expect(changedChoices(choices).map((c) => [c.field, c.column])).toEqual([['LATITUDE', 'GPS_LAT_DEG']]);
  });

  it('leave a rejected field and the unused mappings as they are when asked', () => {
    const choices = setAccepted(initialChoices(result), 'FUEL_FLOW', false);
    const list = mappingListAfter(channels, result, choices, false);
    expect(list.find((i) => i.id === 'm1')?.source).toBe('ME_FO_Flow_kgh');
    expect(list.find((i) => i.id === 'm4')).toBeDefined();
    expect(applySummary(channels, mappingListAfter(channels, result, [], false))).toBe(
      'No change to the mappings',
    );
  });

  it('name the mappings Apply would remove: none unless asked, and Undo puts each back with its id', () => {
    const choices = acceptAll(initialChoices(result));
    // Accepting all changes columns but removes nothing by itself.
    expect(removedMappings(channels, mappingListAfter(channels, result, choices, false))).toEqual([]);
    // With the unused mappings removed, exactly the one no calculation reads and whose column is not in the file.
    const list = mappingListAfter(channels, result, choices, true);
    expect(removedMappings(channels, list).map((c) => [c.id, c.name, c.source])).toEqual([
      ['m4', 'SHIP_SPEED', 'GPS_SOG_kn'],
    ]);
    // A list that leaves out every mapping removes them all.
    expect(removedMappings(channels, []).map((c) => c.id)).toEqual(['m1', 'm2', 'm3', 'm4']);
    // Undo: the mappings as they were, ids included; applied over the list it removes and changes nothing.
    const undo = restoreList(channels);
    expect(undo.map((i) => [i.id, i.source])).toEqual(channels.map((c) => [c.id, c.source]));
    expect(removedMappings(channels, undo)).toEqual([]);
    expect(applySummary(channels, undo)).toBe('No change to the mappings');
  });
});
