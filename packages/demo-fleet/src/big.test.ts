import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseReaderConfiguration } from '@portal/contracts/readers';
import { afterAll, describe, expect, it } from 'vitest';
import { writeBigCsv } from './big';
import { DEMO_SHIPS } from './ships';

describe('writeBigCsv', () => {
  let dir = '';
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('writes a CSV of at least the asked size with the asked number of channels', async () => {
    dir = await mkdtemp(join(tmpdir(), 'demo-fleet-big-'));
    const path = join(dir, 'big.csv');
    const result = await writeBigCsv(path, {
      megabytes: 2,
      channels: 50,
      ship: DEMO_SHIPS[1]!,
      from: new Date('2026-01-01'),
    });
    expect((await stat(path)).size).toBe(result.bytes);
    expect(result.bytes).toBeGreaterThanOrEqual(2_000_000);
    const lines = (await readFile(path, 'utf8')).trimEnd().split('\n');
    const header = lines[0]!.split(','); // split answers at least one line
    expect(header).toHaveLength(51);
    expect(new Set(header).size).toBe(51);
    expect(lines.length - 1).toBe(result.rows);
    expect(result.rows).toBe(result.days * 1440);
    for (const line of lines.slice(1, 2000)) expect(line.split(',')).toHaveLength(51);
    expect(lines[1]?.startsWith('2026-01-01 00:00:00,')).toBe(true);
    expect(result.dataSource.channelMappings.map((m) => m.source)).toEqual(header.slice(1));
    expect(
      parseReaderConfiguration(
        result.dataSource.dataSourceReaderId,
        result.dataSource.dataSourceReaderConfiguration,
      ).ok,
    ).toBe(true);
  });
});
