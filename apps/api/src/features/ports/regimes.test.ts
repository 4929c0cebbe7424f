import { describe, expect, it } from 'vitest';
import { portArea, portRegimes } from './regimes';

const regimes = (country: string, area: string | null, date: string) => portRegimes({ country, area }, date);

describe('portRegimes', () => {
  it('puts an EU port in the EU and the EEA, and a US port in neither', () => {
    expect(regimes('NL', null, '2025-03-01')).toEqual({
      eu: true,
      eea: true,
      outermostRegion: false,
      uk: false,
      northernIreland: false,
      greatBritain: false,
    });
    expect(regimes('US', null, '2025-03-01')).toMatchObject({ eu: false, eea: false, uk: false });
  });

  it('puts Norway, Iceland and Liechtenstein in the EEA but not the EU; Svalbard, the Faroes, Greenland and Monaco in neither', () => {
    for (const country of ['NO', 'IS', 'LI'])
      expect(regimes(country, null, '2025-01-01'), country).toMatchObject({ eu: false, eea: true });
    for (const country of ['SJ', 'FO', 'GL', 'MC'])
      expect(regimes(country, null, '2025-01-01'), country).toMatchObject({ eu: false, eea: false });
  });

  it('follows the dates of accession: Croatia from 2013-07-01', () => {
    expect(regimes('HR', null, '2013-06-30').eu).toBe(false);
    expect(regimes('HR', null, '2013-07-01').eu).toBe(true);
  });

  it('takes the UK out of the EU after 2020-01-31 and out of the EEA after the transition, 2020-12-31', () => {
    expect(regimes('GB', null, '2020-01-31')).toMatchObject({ eu: true, eea: true, uk: true });
    expect(regimes('GB', null, '2020-02-01')).toMatchObject({ eu: false, eea: true, uk: true });
    expect(regimes('GB', null, '2020-12-31')).toMatchObject({ eu: false, eea: true });
    expect(regimes('GB', null, '2021-01-01')).toMatchObject({ eu: false, eea: false, uk: true });
    // Gibraltar left with the UK, but is not part of it.
    expect(regimes('GI', null, '2021-01-01')).toMatchObject({ eu: false, eea: false, uk: false });
    expect(regimes('GI', null, '2019-06-01')).toMatchObject({ eu: true, uk: false });
  });

  it('tells Northern Ireland from Great Britain, and keeps it out of the EEA for maritime', () => {
    expect(regimes('GB', 'GB-NIR', '2026-07-01')).toEqual({
      eu: false,
      eea: false,
      outermostRegion: false,
      uk: true,
      northernIreland: true,
      greatBritain: false,
    });
    expect(regimes('GB', null, '2026-07-01')).toMatchObject({ northernIreland: false, greatBritain: true });
    // The Crown Dependencies are not the UK.
    for (const country of ['IM', 'JE', 'GG'])
      expect(regimes(country, null, '2026-07-01'), country).toMatchObject({ uk: false, eea: false });
  });

  it('flags the outermost regions, with their dates', () => {
    for (const country of ['GP', 'GF', 'MQ', 'RE', 'MF', 'YT'])
      expect(regimes(country, null, '2025-01-01'), country).toMatchObject({
        eu: true,
        eea: true,
        outermostRegion: true,
      });
    for (const area of ['ES-CN', 'PT-20', 'PT-30'])
      expect(regimes(area.slice(0, 2), area, '2025-01-01'), area).toMatchObject({
        eu: true,
        outermostRegion: true,
      });
    expect(regimes('ES', null, '2025-01-01').outermostRegion).toBe(false);
    // Mayotte from 2014; Saint-Barthélemy until 2011.
    expect(regimes('YT', null, '2013-12-31')).toMatchObject({ eu: false, outermostRegion: false });
    expect(regimes('BL', null, '2011-12-31')).toMatchObject({ eu: true, outermostRegion: true });
    expect(regimes('BL', null, '2012-01-01')).toMatchObject({
      eu: false,
      eea: false,
      outermostRegion: false,
    });
    // An area only counts in its own country.
    expect(regimes('FR', 'ES-CN', '2025-01-01').outermostRegion).toBe(false);
  });

  it('reads an instant as its UTC day', () => {
    expect(regimes('GB', null, '2020-12-31T23:59:59Z').eea).toBe(true);
    expect(portRegimes({ country: 'GB' }, new Date('2021-01-01T00:00:00Z')).eea).toBe(false);
  });
});

describe('portArea', () => {
  it('finds Northern Ireland by its subdivision codes, old and new', () => {
    for (const subdivision of ['BFS', 'DOW', 'LRN', 'NMD', 'DRY'])
      expect(portArea({ country: 'GB', subdivision, lat: 54.6, lon: -5.9 }), subdivision).toBe('GB-NIR');
    expect(portArea({ country: 'GB', subdivision: 'HLD', lat: 57.5, lon: -4.2 })).toBeNull();
  });

  it('places a GB entry without a subdivision by its position: Belfast and Rathlin in, Kintyre and Stranraer out', () => {
    expect(portArea({ country: 'GB', lat: 54.6, lon: -5.92 })).toBe('GB-NIR');
    expect(portArea({ country: 'GB', lat: 55.29, lon: -6.2 })).toBe('GB-NIR');
    expect(portArea({ country: 'GB', lat: 55.29, lon: -5.8 })).toBeNull();
    expect(portArea({ country: 'GB', lat: 54.9, lon: -5.03 })).toBeNull();
    expect(portArea({ country: 'GB', lat: 51.5, lon: -0.1 })).toBeNull();
  });

  it('finds the Canaries, the Azores and Madeira by subdivision or, without one, by position', () => {
    expect(portArea({ country: 'ES', subdivision: 'TF', lat: 28.47, lon: -16.25 })).toBe('ES-CN');
    expect(portArea({ country: 'ES', subdivision: 'GC', lat: 28.13, lon: -15.43 })).toBe('ES-CN');
    expect(portArea({ country: 'ES', lat: 28.96, lon: -13.55 })).toBe('ES-CN');
    expect(portArea({ country: 'ES', subdivision: 'V', lat: 39.45, lon: -0.32 })).toBeNull();
    expect(portArea({ country: 'PT', subdivision: '20', lat: 37.73, lon: -25.67 })).toBe('PT-20');
    expect(portArea({ country: 'PT', lat: 38.53, lon: -28.63 })).toBe('PT-20');
    expect(portArea({ country: 'PT', subdivision: '30', lat: 32.65, lon: -16.91 })).toBe('PT-30');
    expect(portArea({ country: 'PT', lat: 33.06, lon: -16.33 })).toBe('PT-30');
    expect(portArea({ country: 'PT', subdivision: '11', lat: 38.7, lon: -9.15 })).toBeNull();
  });
});
