import { describe, expect, it } from 'vitest';
import { zoneColumns } from './zone-columns';

const M = 60_000;
const T0 = Date.UTC(2025, 0, 1);
const latitude = { id: 'ch-lat', data_source_id: 'ds', source: 'lat', name: 'LATITUDE' };
const longitude = { id: 'ch-lon', data_source_id: 'ds', source: 'lon', name: 'LONGITUDE' };

describe('zone columns', () => {
  it('is 1 in an ECA, 0 outside and 255 where the position is not known; one column per targets array', () => {
    const timestamps = Float64Array.from([T0, T0 + M, T0 + 20 * M]);
    const zoneOf = zoneColumns({
      latitude,
      longitude,
      rawBySource: new Map([
        [
          'ds',
          {
            timestamps,
            // The English Channel (North Sea ECA), mid-Atlantic, then no position.
            columns: { lat: Float64Array.from([50.2, 30, NaN]), lon: Float64Array.from([-1, -40, NaN]) },
          },
        ],
      ]),
    });
    const eca = zoneOf('eca', timestamps, 0);
    expect(Array.from(eca)).toEqual([1, 0, 255]);
    expect(zoneOf('eca', timestamps, 0)).toBe(eca);
    expect(Array.from(zoneOf('noDischarge', timestamps, 0))[2]).toBe(255);
  });
});
