import { describe, expect, it } from 'vitest';
import { CHANNELS_READ_BY_DEFAULTS } from '@portal/formula';
import {
  ACCEPT_CONFIDENCE,
  consumerInName,
  fuelTypeInName,
  KNOWN_FIELDS,
  normaliseName,
  scoreColumn,
  suggestMappings,
  unitKind,
  type SuggestionColumn,
} from './channel-suggestions';

const column = (
  channel: string,
  min: number | null,
  max: number | null,
  more: Partial<SuggestionColumn> = {},
) =>
  ({
    channel,
    unit: null,
    dataType: 'Double',
    minSampleValue: min,
    maxSampleValue: max,
    ...more,
  }) satisfies SuggestionColumn;

describe('normaliseName', () => {
  it('reads snake, dotted, camel and free-text names into the same words', () => {
    expect(normaliseName('ME1_FO_FLOW_KGH')).toEqual({ words: ['engine', 'fuel', 'flow'], unit: 'KGH' });
    expect(normaliseName('ME.FOFlow').words).toEqual(['engine', 'fuel', 'flow']);
    expect(normaliseName('Fuel oil flow main engine (kg/h)')).toEqual({
      words: ['fuel', 'flow', 'engine'],
      unit: 'kg/h',
    });
    expect(normaliseName('EGCS.SO2Out').words).toEqual(['scrubber', 'so2', 'outlet']);
    expect(normaliseName('SO2 Outlet [ppm]')).toEqual({ words: ['so2', 'outlet'], unit: 'ppm' });
    expect(normaliseName('WashWater.Outlet.pH').words).toEqual(['washwater', 'outlet', 'ph']);
    expect(normaliseName('FO_Sulphur_pct')).toEqual({ words: ['fuel', 'sulfur'], unit: 'pct' });
    expect(normaliseName('GPS_Lat').words).toEqual(['latitude']);
  });

  it('keeps the digits that belong to a name (SO2, CO2) and drops unit numbers (ME1, EGCS2)', () => {
    expect(normaliseName('EGCS2_CO2_pct').words).toEqual(['scrubber', 'co2']);
    expect(normaliseName('WW_FLOW_M3H')).toEqual({ words: ['washwater', 'flow'], unit: 'M3H' });
  });
});

describe('unitKind', () => {
  it('knows the spellings loggers use', () => {
    expect(unitKind('KGH')).toBe('kg/h');
    expect(unitKind('kg/h')).toBe('kg/h');
    expect(unitKind('% m/m')).toBe('%');
    expect(unitKind('%vol')).toBe('%');
    expect(unitKind('PCT')).toBe('%');
    expect(unitKind('µg/l')).toBe('ug/L');
    expect(unitKind('°')).toBe('deg');
    expect(unitKind('°C')).toBe('degC');
    expect(unitKind('m³/h')).toBe('t/h');
    expect(unitKind('t/h')).toBe('t/h');
    expect(unitKind('-')).toBe('none');
    expect(unitKind('furlongs')).toBeNull();
    expect(unitKind(null)).toBeNull();
  });
});

describe('scoreColumn', () => {
  it('is confident for a known alias with the right unit and a possible range', () => {
    const score = scoreColumn({ name: 'FUEL_FLOW' }, column('ME1_FO_FLOW_KGH', 0, 2300));
    expect(score?.confidence).toBeGreaterThanOrEqual(ACCEPT_CONFIDENCE);
    expect(score?.reasons).toEqual([
      'Name like "fuel flow" (78 %)',
      'Unit KGH agrees',
      'Values 0 to 2300 within 0 to 200000',
    ]);
  });

  it('lowers the confidence for a unit that disagrees, from the name or from the unit row', () => {
    const right = scoreColumn({ name: 'ENGINE_LOAD' }, column('ME load', 0, 90, { unit: '%' }))!;
    const rpm = scoreColumn({ name: 'ENGINE_LOAD' }, column('ME load', 0, 90, { unit: 'rpm' }))!;
    expect(rpm.confidence).toBeLessThan(right.confidence - 0.3);
    expect(rpm.reasons).toContain('Unit rpm is not %');
  });

  it('lowers the confidence for values a sensor of the field cannot show', () => {
    const heading = scoreColumn({ name: 'LATITUDE' }, column('Lat', 0, 359.9))!;
    expect(heading.confidence).toBeLessThan(ACCEPT_CONFIDENCE);
    expect(heading.reasons).toContain('Values 0 to 359.9 outside -90 to 90');
    const co2 = scoreColumn({ name: 'CO2_PCT' }, column('CO2', 0, 40))!;
    expect(co2.confidence).toBeLessThan(ACCEPT_CONFIDENCE);
    const running = scoreColumn({ name: 'SCRUBBER_RUNNING' }, column('Scrubber running', 0, 2))!;
    expect(running.reasons).toContain('Values 0 to 2 are not on/off');
    expect(running.confidence).toBeLessThan(ACCEPT_CONFIDENCE);
    const onOff = scoreColumn(
      { name: 'SCRUBBER_RUNNING' },
      column('Scrubber running', 0, 1, { dataType: 'Boolean' }),
    )!;
    expect(onOff.confidence).toBe(1);
  });

  it("takes the organization's own aliases", () => {
    expect(scoreColumn({ name: 'SO2_PPM' }, column('XQ_417', 2, 40))).toBeNull();
    const own = scoreColumn({ name: 'SO2_PPM' }, column('XQ_417', 2, 40), ['XQ_417'])!;
    expect(own.confidence).toBeGreaterThanOrEqual(ACCEPT_CONFIDENCE);
    expect(own.reasons[0]).toBe('Your organization\'s alias "XQ_417"');
  });

  it('scores a field it does not know by its own name', () => {
    const score = scoreColumn(
      { name: 'BOILER_STEAM_FLOW', unit: 'kg/h' },
      column('Boiler steam flow [kg/h]', 0, 900),
    );
    expect(score?.confidence).toBeGreaterThanOrEqual(ACCEPT_CONFIDENCE);
  });
});

describe('suggestMappings', () => {
  it('gives each column to one field at most, the most confident pair first', () => {
    const result = suggestMappings({
      fields: [{ name: 'WASHWATER_PH_INLET' }, { name: 'WASHWATER_PH' }],
      columns: [column('Washwater pH', 6.5, 8.1), column('Engine speed', 0, 120)],
    });
    expect(result.proposals).toHaveLength(1);
    expect(result.proposals[0]).toMatchObject({ field: 'WASHWATER_PH', column: 'Washwater pH' });
    expect(result.unmatchedFields).toEqual(['WASHWATER_PH_INLET']);
    expect(result.unmappedColumns).toEqual(['Engine speed']);
  });

  it('proposes nothing for a field no column resembles', () => {
    const result = suggestMappings({
      fields: [{ name: 'SO2_PPM' }],
      columns: [column('Gyro heading', 0, 359)],
    });
    expect(result.proposals).toEqual([]);
    expect(result.unmatchedFields).toEqual(['SO2_PPM']);
  });

  it('knows every channel the default calculations read, washwater discharge included', () => {
    expect(CHANNELS_READ_BY_DEFAULTS).toContain('WASHWATER_TURBIDITY_INLET');
    expect(Object.keys(KNOWN_FIELDS)).toEqual(expect.arrayContaining([...CHANNELS_READ_BY_DEFAULTS]));
  });
});

describe('fuel flows by consumer (the carbon ledger)', () => {
  it('reads the consumer from the names loggers give fuel flows', () => {
    const consumers = Object.fromEntries(
      [
        'ME_FO_FLOW',
        'ME1_FO_FLOW_KGH',
        'Fuel flow ME',
        'Main engine fuel consumption (kg/h)',
        'AE1_FUEL_CONS',
        'AE.FOFlow',
        'DG_FUEL_FLOW',
        'DG3_MGO_CONS_KGH',
        'Aux engine fuel flow',
        'Diesel generator 2 fuel [kg/h]',
        'GEN_FO_CONS',
        'BLR_FO_FLOW',
        'Aux boiler fuel consumption',
        'Boiler1.FuelFlow',
        'Incinerator fuel flow',
        'FO Flow [kg/h]',
      ].map((n) => [n, consumerInName(n)]),
    );
    expect(consumers).toEqual({
      ME_FO_FLOW: 'MAIN_ENGINE',
      ME1_FO_FLOW_KGH: 'MAIN_ENGINE',
      'Fuel flow ME': 'MAIN_ENGINE',
      'Main engine fuel consumption (kg/h)': 'MAIN_ENGINE',
      AE1_FUEL_CONS: 'AUX_ENGINE',
      'AE.FOFlow': 'AUX_ENGINE',
      DG_FUEL_FLOW: 'AUX_ENGINE',
      DG3_MGO_CONS_KGH: 'AUX_ENGINE',
      'Aux engine fuel flow': 'AUX_ENGINE',
      'Diesel generator 2 fuel [kg/h]': 'AUX_ENGINE',
      GEN_FO_CONS: 'AUX_ENGINE',
      BLR_FO_FLOW: 'BOILER',
      'Aux boiler fuel consumption': 'BOILER',
      'Boiler1.FuelFlow': 'BOILER',
      'Incinerator fuel flow': 'OTHER',
      'FO Flow [kg/h]': null,
    });
  });

  it('reads the fuel a name says, and none when it says none or two', () => {
    expect(fuelTypeInName('ME_HFO_FLOW_KGH')).toBe('HFO');
    expect(fuelTypeInName('ME1 VLSFO consumption')).toBe('HFO');
    expect(fuelTypeInName('DG3_MGO_CONS_KGH')).toBe('MDO_MGO');
    expect(fuelTypeInName('Boiler marine gas oil flow')).toBe('MDO_MGO');
    expect(fuelTypeInName('AE_LSMGO_Flow')).toBe('MDO_MGO');
    expect(fuelTypeInName('ME_LNG_FLOW')).toBe('LNG');
    expect(fuelTypeInName('ME.MEOH.Flow')).toBe('METHANOL');
    expect(fuelTypeInName('ME_FO_FLOW')).toBeNull();
    expect(fuelTypeInName('ULSFO flow')).toBeNull();
    expect(fuelTypeInName('HFO_MGO_FLOW')).toBeNull();
  });

  it("keeps another consumer's flow from the main engine's FUEL_FLOW and gives it to its own field", () => {
    const columns = [
      column('AE1_FUEL_CONS', 0, 420, { unit: 'kg/h' }),
      column('BLR_FO_FLOW', 0, 180, { unit: 'kg/h' }),
      column('ME_FO_FLOW', 0, 2100, { unit: 'kg/h' }),
      column('DG_FUEL_FLOW', 0, 300, { unit: 'kg/h' }),
      column('FO_TYPE', 0, 2, { dataType: 'Integer' }),
    ];
    const ae = scoreColumn({ name: 'FUEL_FLOW' }, columns[0]!)!;
    expect(ae.confidence).toBeLessThan(ACCEPT_CONFIDENCE);
    expect(ae.reasons).toContain('Names the auxiliary engines, not the main engine');
    const result = suggestMappings({
      fields: [
        { name: 'FUEL_FLOW' },
        { name: 'AE_FUEL_FLOW' },
        { name: 'BOILER_FUEL_FLOW' },
        { name: 'FUEL_TYPE' },
      ],
      columns,
    });
    expect(result.proposals.map((p) => [p.field, p.column, p.consumer, p.fuelType])).toEqual([
      ['FUEL_FLOW', 'ME_FO_FLOW', 'MAIN_ENGINE', null],
      ['AE_FUEL_FLOW', 'AE1_FUEL_CONS', 'AUX_ENGINE', null],
      ['BOILER_FUEL_FLOW', 'BLR_FO_FLOW', 'BOILER', null],
      ['FUEL_TYPE', 'FO_TYPE', null, null],
    ]);
    for (const p of result.proposals) expect(p.confidence, p.field).toBeGreaterThanOrEqual(ACCEPT_CONFIDENCE);
    expect(result.unmappedColumns).toEqual(['DG_FUEL_FLOW']);
  });

  it('proposes the consumer and fuel of a flow a configuration names its own way', () => {
    const result = suggestMappings({
      fields: [{ name: 'GENSET_FUEL', unit: 'kg/h' }, { name: 'SO2_PPM' }],
      columns: [column('DG3_MGO_CONS_KGH', 0, 300), column('SO2_OUT_PPM', 0, 60)],
      aliases: [{ field: 'GENSET_FUEL', alias: 'DG3_MGO_CONS_KGH' }],
    });
    expect(result.proposals.map((p) => [p.field, p.consumer, p.fuelType])).toEqual([
      ['GENSET_FUEL', 'AUX_ENGINE', 'MDO_MGO'],
      ['SO2_PPM', null, null],
    ]);
  });
});
