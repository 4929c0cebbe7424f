import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { LOCODE } from '@portal/contracts/ports';
import { portsDataFile } from './reference';
import { portArea } from './regimes';

/** The shipped reference (data/ports.json, scripts/ports/build-ports.ts) is what its header says it is. */
describe('the shipped port reference', () => {
  const data = portsDataFile();

  it('says its release, sources and licence, and its digest is that of its ports', () => {
    expect(data.release).toMatch(/UN\/LOCODE 2024-2/);
    expect(data.sources.length).toBeGreaterThan(0);
    expect(data.licence).toMatch(/UNECE/);
    expect(data.count).toBe(data.ports.length);
    expect(createHash('sha256').update(JSON.stringify(data.ports)).digest('hex').slice(0, 16)).toBe(
      data.digest,
    );
  });

  it('holds each UN/LOCODE once, a port (function 1) of its country, on the globe, in its area', () => {
    const seen = new Set<string>();
    const problems: string[] = [];
    for (const [locode, name, , country, subdivision, lat, lon, functions, , area, position] of data.ports) {
      if (seen.has(locode)) problems.push(`${locode} twice`);
      seen.add(locode);
      if (!LOCODE.test(locode) || locode.slice(0, 2) !== country) problems.push(`${locode}: code or country`);
      if (!name.trim() || name.includes('\uFFFD')) problems.push(`${locode}: name ${name}`);
      if (functions.charAt(0) !== '1') problems.push(`${locode}: function ${functions}`);
      if (!(Math.abs(lat) <= 90 && Math.abs(lon) <= 180)) problems.push(`${locode}: ${lat} ${lon}`);
      if (position !== 'U' && position !== 'W') problems.push(`${locode}: position ${position}`);
      if (portArea({ country, subdivision, lat, lon }) !== area) problems.push(`${locode}: area ${area}`);
    }
    expect(problems.slice(0, 20)).toEqual([]);
  });

  it('has the ports the regimes turn on: Northern Ireland, the Canaries, the Azores, Madeira, the French outermost regions', () => {
    const areas = new Map<string, number>();
    for (const p of data.ports) if (p[9]) areas.set(p[9], (areas.get(p[9]) ?? 0) + 1);
    for (const area of ['GB-NIR', 'ES-CN', 'PT-20', 'PT-30'])
      expect(areas.get(area), area).toBeGreaterThan(3);
    const countries = new Set(data.ports.map((p) => p[3]));
    for (const country of ['GP', 'GF', 'MQ', 'RE', 'YT', 'MF', 'NO', 'IS', 'GB', 'US'])
      expect(countries.has(country), country).toBe(true);
  });
});
