import { describe, expect, it } from 'vitest';
import { ACCEPT_CONFIDENCE } from '@portal/contracts/channel-suggestions';
import { parseReaderConfiguration } from '@portal/contracts/readers';
import {
  CHANNELS,
  DEMO_SHIPS,
  FOREIGN_LOGGERS,
  dataSourceDefinition,
  foreignColumnFields,
  foreignDataSource,
  rawChannelNames,
  writeForeignDayFile,
  writeShipDayFile,
  type ChannelNaming,
} from '@portal/demo-fleet';
import { parseDataFile, sampleChannels } from '../../readers';
import { headOfDelimited, presentSuggestions, type MappingRow } from './suggestions';

const DAY = new Date('2026-03-03T00:00:00Z');
/** The 12 channels of DOMAIN.md's "Channels a ship logs": what the default calculations read. */
const DOMAIN_CHANNELS: string[] = CHANNELS.slice(0, 12).map((c) => c.field);

async function columnsOf(
  file: { fileName: string; content: Buffer },
  source: {
    dataSourceReaderId: string;
    dataSourceReaderConfiguration: string;
    utcTimezoneOffsetInMinutes: number;
  },
) {
  const parsed = parseReaderConfiguration(source.dataSourceReaderId, source.dataSourceReaderConfiguration);
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  const data = await parseDataFile(
    file,
    { readerId: source.dataSourceReaderId, configuration: parsed.configuration },
    { utcTimezoneOffsetInMinutes: source.utcTimezoneOffsetInMinutes },
  );
  return sampleChannels(data);
}

/** The mappings of a configuration imported from a demo ship: the demo logger's names, the 12 read by calculations. */
const importedMappings = (): MappingRow[] =>
  dataSourceDefinition(DEMO_SHIPS[0]!).channelMappings.map((m, i) => ({
    id: `mapping-${i}`,
    name: m.name,
    source: m.source,
    unit: m.unit,
    isCustom: false,
    readByCalculation: DOMAIN_CHANNELS.includes(m.name),
  }));

/** Each logger's file of one day, read by the real readers, with its right mapping (column -> channel); read once. */
let read: ReturnType<typeof readLoggers> | undefined;
const loggers = () => (read ??= readLoggers());
async function readLoggers() {
  const out: {
    name: string;
    columns: Awaited<ReturnType<typeof columnsOf>>;
    right: Record<string, string>;
  }[] = [];
  for (const naming of ['plc', 'tag', 'verbose', 'bracket'] satisfies ChannelNaming[]) {
    // A demo ship whose logger names its channels this way (bracket: the Excel logger).
    const ship = DEMO_SHIPS.find((s) => s.logger.naming === naming)!;
    const columns = await columnsOf(await writeShipDayFile(ship, DAY), dataSourceDefinition(ship));
    const raw = rawChannelNames(naming);
    out.push({
      name: `demo ${naming}`,
      columns,
      right: Object.fromEntries(CHANNELS.map((c) => [raw[c.field], c.field])),
    });
  }
  for (const logger of FOREIGN_LOGGERS) {
    const columns = await columnsOf(
      writeForeignDayFile(DEMO_SHIPS[1]!, DAY, logger),
      foreignDataSource(logger),
    );
    out.push({ name: `foreign ${logger.key}`, columns, right: foreignColumnFields(logger) });
  }
  return out;
}

describe('suggested mappings of the demo and foreign loggers', () => {
  it('propose every DOMAIN channel right for an imported configuration, confident enough for Accept all, and nothing wrong that confident', async () => {
    for (const { name, columns, right } of await loggers()) {
      const result = presentSuggestions({
        fileName: name,
        organizationId: 'org',
        columns,
        mappings: importedMappings(),
        aliases: [],
      });
      const rightOnes = result.proposals.filter((p) => right[p.column] === p.field);
      expect(
        rightOnes.map((p) => p.field),
        name,
      ).toEqual(DOMAIN_CHANNELS);
      for (const p of rightOnes)
        expect(p.confidence, `${name} ${p.field} <- ${p.column}`).toBeGreaterThanOrEqual(ACCEPT_CONFIDENCE);
      expect(result.unmatchedFields, name).toEqual([]);
      // Every proposal names the mapping it changes: the import's mapping of the same name.
      for (const p of result.proposals) expect(p.mappingId, name).toMatch(/^mapping-/);
    }
  });

  it('propose every known field a file has for a data source without mappings, and nothing wrong that confident', async () => {
    for (const { name, columns, right } of await loggers()) {
      const result = presentSuggestions({
        fileName: name,
        organizationId: 'org',
        columns,
        mappings: [],
        aliases: [],
      });
      for (const p of result.proposals) {
        if (right[p.column] === p.field) continue;
        expect(p.confidence, `${name}: wrong ${p.field} <- ${p.column}`).toBeLessThan(ACCEPT_CONFIDENCE);
      }
      const proposedRight = result.proposals.filter((p) => right[p.column] === p.field).map((p) => p.field);
      expect(proposedRight, name).toEqual(expect.arrayContaining(DOMAIN_CHANNELS));
      // The fuel flows of the demo loggers go to their consumers' fields, with the consumer for the mapping.
      if (name.startsWith('demo'))
        for (const [field, consumer] of [
          ['FUEL_FLOW', 'MAIN_ENGINE'],
          ['AE_FUEL_FLOW', 'AUX_ENGINE'],
          ['BOILER_FUEL_FLOW', 'BOILER'],
        ] as const) {
          const proposal = result.proposals.find((p) => p.field === field);
          expect(proposal && right[proposal.column], `${name} ${field}`).toBe(field);
          expect(proposal, `${name} ${field}`).toMatchObject({ consumer, fuelType: null });
          expect(proposal!.confidence, `${name} ${field}`).toBeGreaterThanOrEqual(ACCEPT_CONFIDENCE);
        }
      // The columns the portal does not use are listed as unmapped.
      expect(result.unmappedColumns.length, name).toBeGreaterThan(0);
      for (const c of result.unmappedColumns)
        expect(result.proposals.map((p) => p.column)).not.toContain(c.channel);
    }
  });

  it('list the imported mappings that read no column of the file, and tell when an existing mapping already matches', async () => {
    const [plc] = await loggers();
    const ship = DEMO_SHIPS.find((s) => s.logger.naming === 'plc')!;
    const result = presentSuggestions({
      fileName: 'f',
      organizationId: 'org',
      columns: plc!.columns,
      mappings: dataSourceDefinition(ship).channelMappings.map((m, i) => ({
        id: `m${i}`,
        name: m.name,
        source: m.source,
        unit: m.unit,
        isCustom: false,
        readByCalculation: DOMAIN_CHANNELS.includes(m.name),
      })),
      aliases: [],
    });
    expect(result.proposals.every((p) => p.matchesExisting)).toBe(true);
    expect(result.mappingsWithoutColumn).toEqual([]);

    const foreign = await columnsOf(
      writeForeignDayFile(DEMO_SHIPS[1]!, DAY, FOREIGN_LOGGERS[0]!),
      foreignDataSource(FOREIGN_LOGGERS[0]!),
    );
    const imported = presentSuggestions({
      fileName: 'f',
      organizationId: 'org',
      columns: foreign,
      mappings: importedMappings(),
      aliases: [],
    });
    expect(imported.proposals.some((p) => p.matchesExisting)).toBe(false);
    // The 13 channels the calculations do not read keep the demo logger's names: none is a column of this file.
    expect(imported.mappingsWithoutColumn).toHaveLength(CHANNELS.length - 12);
    expect(imported.mappingsWithoutColumn.every((m) => !m.readByCalculation)).toBe(true);
  });
});

describe('headOfDelimited', () => {
  it('cuts after the last whole line within the limit', () => {
    expect(headOfDelimited(Buffer.from('a\nbb\nccc\n'), 6).toString()).toBe('a\nbb\n');
    expect(headOfDelimited(Buffer.from('a\nb\n'), 100).toString()).toBe('a\nb\n');
  });
});
