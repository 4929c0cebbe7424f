import { describe, expect, it } from 'vitest';
import { EARTH_RADIUS_NM, haversineNm } from './geo';

describe('great-circle distance', () => {
  it('gives a minute of arc of a great circle as about one nautical mile', () => {
    // 1 nm was defined as a minute of latitude; on the IUGG mean sphere a degree is 60.04 nm.
    expect(haversineNm(0, 0, 1, 0)).toBeCloseTo((Math.PI / 180) * EARTH_RADIUS_NM, 9);
    expect(haversineNm(0, 0, 1, 0)).toBeCloseTo(60.04, 2);
    expect(haversineNm(10, 20, 10, 20)).toBe(0);
  });

  it('shrinks a degree of longitude with the cosine of the latitude', () => {
    const atEquator = haversineNm(0, 0, 0, 1);
    const at60 = haversineNm(60, 0, 60, 1);
    expect(at60 / atEquator).toBeCloseTo(0.5, 3);
  });

  it('goes the short way round across the antimeridian and reaches half the globe at most', () => {
    expect(haversineNm(0, 179.5, 0, -179.5)).toBeCloseTo(haversineNm(0, 0, 0, 1), 9);
    expect(haversineNm(0, 0, 0, 180)).toBeCloseTo(Math.PI * EARTH_RADIUS_NM, 6);
  });

  it('measures Rotterdam to Baltimore (UN/LOCODE points) as the known great-circle distance, about 3,300 nm', () => {
    // NLRTM 51°55'N 4°30'E, USBAL 39°17'N 76°37'W; the great circle (not the sea route) is 3,300-3,320 nm.
    const nm = haversineNm(51 + 55 / 60, 4.5, 39 + 17 / 60, -(76 + 37 / 60));
    expect(nm).toBeGreaterThan(3_280);
    expect(nm).toBeLessThan(3_340);
  });
});
