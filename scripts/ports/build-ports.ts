/**
 * Builds the sea-port reference that ships with the product, apps/api/src/features/ports/data/ports.json, from
 * UN/LOCODE (docs/decisions/0108-ports.md). Nothing is downloaded at install or run time: the file is committed,
 * and this script says how it was made so that it can be made again.
 *
 *   npx tsx scripts/ports/build-ports.ts --source <folder>
 *
 * A port is an entry whose function has "1" (a port, UN/LOCODE Manual 2.1.7) with a position: its coordinates
 * when given and valid, else the World Port Index's harbour of the same UN/LOCODE; not marked for removal (change indicator X, status XX) nor rejected (RR). Each keeps its code, its name
 * with diacritics (and the one without, when they differ), country, subdivision, position in decimal degrees, the
 * function and status columns as UN/LOCODE writes them, and its area for the regimes (regimes.ts: Northern Ireland,
 * the Canary Islands, the Azores, Madeira).
 *
 * The folder holds, as they come:
 *   unece/   UNECE's CSV parts of a release (`2024-2 UNLOCODE CodeListPart2.csv`, ..., ISO 8859-1, no header):
 *            every country found in a part comes from it.
 *   geoapify/ per-country CSV files of geoapify/un-locode (`DE.csv`, ...): only for the countries no UNECE part has.
 *   wpi/     the World Port Index's UpdatedPub150.csv: the position of a UN/LOCODE port that has none (matched by
 *            its UN/LOCODE column); UN/LOCODE's own position is always kept where it has one.
 *
 * The build of the committed file (2026-11-28), from what could be had (no network here: public repositories
 * through their snapshots, where a file of 4 MiB or more is missing):
 *   - unece/: `2024-2 UNLOCODE CodeListPart2.csv` (countries GA..NZ) and `...Part3.csv` (OM..ZW), UNECE's
 *     files of release 2024-2 unchanged, from github.com/Open-Earth-Foundation/data-research at commit
 *     7b06aecbfba777bec2cd03bb38255ae20c0f763b, folder reviews/uncece-unlocode/releases/2024/sample/
 *     (`git show '<commit>:reviews/uncece-unlocode/releases/2024/sample/2024-2 UNLOCODE CodeListPart2.csv'`).
 *     Its Part1 (AD..FR, 4.2 MB) was not in the snapshot.
 *   - geoapify/: AD..FR from github.com/geoapify/un-locode at commit 2d18b0928396713dfa30b096cbeabcda36de9ae3,
 *     src/data/<CC>.csv (MIT), an earlier release (2024-1 by its date, October 2024, and by what differs from
 *     2024-2 for the other countries) with two losses this script repairs where it can: the names with diacritics
 *     were read in the wrong encoding (a U+FFFD where the accent was: the name without diacritics is used then),
 *     and entries without coordinates were geocoded by Geoapify (`geocoded` true: left out, they are no UN/LOCODE
 *     position). Replace geoapify/ by UNECE's Part1 of the same release as the others and run again.
 *   - wpi/: UpdatedPub150.csv from github.com/JamesRexMiller4/shapely_tut at commit
 *     4f45cf9da4fe64318f538e71b04aabb383548f27 (the NGA file as of 2025-03-25, a US Government work).
 * UN/LOCODE is UNECE's, provided free of charge as a service to its users (UN/LOCODE Manual, 1.1.3).
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseUnLocodeCoordinates } from '../../apps/api/src/features/ports/coordinates';
import { portArea } from '../../apps/api/src/features/ports/regimes';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const PORTS_DATA_FILE = path.join(root, 'apps/api/src/features/ports/data/ports.json');

/**
 * One port of the data file: [locode, name, nameAscii|null, country, subdivision|null, lat, lon, function, status,
 * area|null, position], position 'U' when the point is UN/LOCODE's, 'W' when it is the World Port Index's.
 */
export type PortRow = [
  string,
  string,
  string | null,
  string,
  string | null,
  number,
  number,
  string,
  string,
  string | null,
  'U' | 'W',
];

/** A CSV line as RFC 4180 reads it (quotes around fields, doubled inside). */
export function parseCsvLine(line: string): string[] {
  const out: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted) {
      if (c === '"') {
        if (line[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      out.push(field);
      field = '';
    } else field += c;
  }
  out.push(field);
  return out;
}

export interface UnLocodeEntry {
  change: string;
  country: string;
  location: string;
  name: string;
  nameAscii: string;
  subdivision: string;
  functions: string;
  status: string;
  lat: number;
  lon: number;
  position: 'U' | 'W';
}

/** Is this entry a port of the reference? (The header explains the rule.) */
export function isReferencePort(entry: Pick<UnLocodeEntry, 'change' | 'functions' | 'status'>): boolean {
  return (
    entry.functions.charAt(0) === '1' &&
    entry.change.trim().toUpperCase() !== 'X' &&
    entry.status !== 'XX' &&
    entry.status !== 'RR'
  );
}

export function toRow(entry: UnLocodeEntry): PortRow {
  const subdivision = entry.subdivision.trim() || null;
  const area = portArea({ country: entry.country, subdivision, lat: entry.lat, lon: entry.lon });
  const name = entry.name.trim();
  const ascii = entry.nameAscii.trim();
  return [
    entry.country + entry.location,
    name,
    ascii && ascii !== name ? ascii : null,
    entry.country,
    subdivision,
    entry.lat,
    entry.lon,
    entry.functions,
    entry.status,
    area,
    entry.position,
  ];
}

interface SourceCount {
  file: string;
  entries: number;
  ports: number;
  /** Of the ports: those whose point is the World Port Index's. */
  fromWpi: number;
  noPosition: number;
}

/** UNECE's CSV parts: Change, Country, Location, Name, NameWoDiacritics, SubDiv, Function, Status, Date, IATA, Coordinates, Remarks. */
function readUnece(
  dir: string,
  counts: SourceCount[],
  wpi: Map<string, { lat: number; lon: number }>,
): Map<string, UnLocodeEntry[]> {
  const byCountry = new Map<string, UnLocodeEntry[]>();
  if (!existsSync(dir)) return byCountry;
  for (const file of readdirSync(dir)
    .filter((f) => /CodeListPart\d\.csv$/i.test(f))
    .sort()) {
    const count: SourceCount = { file: `unece/${file}`, entries: 0, ports: 0, fromWpi: 0, noPosition: 0 };
    const text = new TextDecoder('latin1').decode(readFileSync(path.join(dir, file)));
    for (const line of text.split(/\r?\n/)) {
      if (!line.trim()) continue;
      const f = parseCsvLine(line);
      const country = f[1]?.trim() ?? '';
      const location = f[2]?.trim() ?? '';
      if (!byCountry.has(country) && country) byCountry.set(country, []);
      if (!location) continue; // the country's heading row
      count.entries++;
      const position = parseUnLocodeCoordinates(f[10]);
      const entry = {
        change: f[0] ?? '',
        country,
        location,
        name: f[3] ?? '',
        nameAscii: f[4] ?? '',
        subdivision: f[5] ?? '',
        functions: f[6] ?? '',
        status: f[7] ?? '',
      };
      if (!isReferencePort(entry)) continue;
      const filled = position
        ? { ...position, position: 'U' as const }
        : wpiPosition(wpi, country + location);
      if (!filled) {
        count.noPosition++;
        continue;
      }
      count.ports++;
      if (filled.position === 'W') count.fromWpi++;
      byCountry.get(country)!.push({ ...entry, ...filled });
    }
    counts.push(count);
  }
  return byCountry;
}

/** geoapify/un-locode's src/data/<CC>.csv: country, location, name, nameWoDiacritics, subdivision, status, function, iata, lat, lon, geocoded. */
function readGeoapify(
  dir: string,
  skip: Set<string>,
  wpi: Map<string, { lat: number; lon: number }>,
  counts: SourceCount[],
  repaired: { names: number; geocoded: number },
): Map<string, UnLocodeEntry[]> {
  const byCountry = new Map<string, UnLocodeEntry[]>();
  if (!existsSync(dir)) return byCountry;
  const count: SourceCount = { file: 'geoapify/*.csv', entries: 0, ports: 0, fromWpi: 0, noPosition: 0 };
  for (const file of readdirSync(dir)
    .filter((f) => /^[A-Z]{2}\.csv$/.test(f))
    .sort()) {
    const country = file.slice(0, 2);
    if (skip.has(country)) continue;
    const list: UnLocodeEntry[] = [];
    const lines = readFileSync(path.join(dir, file), 'utf8').split(/\r?\n/);
    for (const line of lines.slice(1)) {
      if (!line.trim()) continue;
      const f = parseCsvLine(line);
      if (!f[1]) continue;
      count.entries++;
      const entry = {
        change: '',
        country: f[0]!,
        location: f[1],
        name: f[2] ?? '',
        nameAscii: f[3] ?? '',
        subdivision: f[4] ?? '',
        status: f[5] ?? '',
        functions: f[6] ?? '',
      };
      if (!isReferencePort(entry)) continue;
      const lat = Number(f[8]);
      const lon = Number(f[9]);
      // A geocoded entry had no UN/LOCODE position (or lost it): Geoapify's geocoder is no source of ours.
      if (f[10] === 'true') repaired.geocoded++;
      const filled =
        f[10] !== 'true' && f[8] !== '' && f[9] !== '' && Number.isFinite(lat) && Number.isFinite(lon)
          ? {
              lat: Math.round(lat * 1e5) / 1e5 + 0,
              lon: Math.round(lon * 1e5) / 1e5 + 0,
              position: 'U' as const,
            }
          : wpiPosition(wpi, entry.country + entry.location);
      if (!filled) {
        count.noPosition++;
        continue;
      }
      if (entry.name.includes('\uFFFD')) {
        entry.name = entry.nameAscii;
        repaired.names++;
      }
      count.ports++;
      if (filled.position === 'W') count.fromWpi++;
      list.push({ ...entry, ...filled });
    }
    byCountry.set(country, list);
  }
  counts.push(count);
  return byCountry;
}

/**
 * The World Port Index (NGA Pub. 150, UpdatedPub150.csv): harbour positions with their UN/LOCODE ("GB SOU"). It
 * places the UN/LOCODE ports that UN/LOCODE gives no coordinates (Southampton, Felixstowe, Gdansk, Algeciras, ...).
 */
function readWpi(file: string): Map<string, { lat: number; lon: number }> {
  const out = new Map<string, { lat: number; lon: number }>();
  if (!existsSync(file)) return out;
  const lines = readFileSync(file, 'utf8').split(/\r?\n/);
  const header = parseCsvLine(lines[0] ?? '');
  const code = header.indexOf('UN/LOCODE');
  const latitude = header.indexOf('Latitude');
  const longitude = header.indexOf('Longitude');
  if (code < 0 || latitude < 0 || longitude < 0)
    throw new Error(`${file}: not the World Port Index's columns`);
  for (const line of lines.slice(1)) {
    if (!line.trim()) continue;
    const f = parseCsvLine(line);
    const locode = (f[code] ?? '').replace(/\s+/g, '').toUpperCase();
    const lat = Number(f[latitude]);
    const lon = Number(f[longitude]);
    if (!/^[A-Z]{2}[A-Z2-9]{3}$/.test(locode) || !Number.isFinite(lat) || !Number.isFinite(lon)) continue;
    if (Math.abs(lat) > 90 || Math.abs(lon) > 180) continue;
    // A code given to two harbours: the first one (the index lists a port's main harbour first).
    if (!out.has(locode))
      out.set(locode, { lat: Math.round(lat * 1e5) / 1e5 + 0, lon: Math.round(lon * 1e5) / 1e5 + 0 });
  }
  return out;
}

const wpiPosition = (wpi: Map<string, { lat: number; lon: number }>, locode: string) => {
  const found = wpi.get(locode);
  return found ? { ...found, position: 'W' as const } : null;
};

export interface PortsData {
  /** What the reference is, in words. */
  release: string;
  /** Changes whenever the ports change: the database reloads its copy when it differs. */
  digest: string;
  sources: string[];
  licence: string;
  builtBy: string;
  count: number;
  fields: string[];
  ports: PortRow[];
}

function main() {
  const at = process.argv.indexOf('--source');
  const source = at > 0 ? process.argv[at + 1] : undefined;
  if (!source || !statSync(source, { throwIfNoEntry: false })?.isDirectory()) {
    console.error('Usage: npx tsx scripts/ports/build-ports.ts --source <folder with unece/ and geoapify/>');
    process.exit(2);
  }
  const counts: SourceCount[] = [];
  const repaired = { names: 0, geocoded: 0 };
  const wpi = readWpi(path.join(source, 'wpi', 'UpdatedPub150.csv'));
  const unece = readUnece(path.join(source, 'unece'), counts, wpi);
  const geoapify = readGeoapify(path.join(source, 'geoapify'), new Set(unece.keys()), wpi, counts, repaired);
  const rows = [...unece.values(), ...geoapify.values()].flat().map(toRow);
  rows.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const seen = new Set<string>();
  const ports = rows.filter((r) => !seen.has(r[0]) && seen.add(r[0]));
  const fromWpiTotal = ports.filter((p) => p[10] === 'W').length;
  const digest = createHash('sha256').update(JSON.stringify(ports)).digest('hex').slice(0, 16);
  const countries = (m: Map<string, unknown>) => [...m.keys()].filter(Boolean).sort();
  const fromUnece = countries(unece);
  const fromGeoapify = countries(geoapify);
  const data: PortsData = {
    release:
      fromGeoapify.length === 0
        ? 'UN/LOCODE 2024-2'
        : `UN/LOCODE 2024-2 for ${fromUnece[0]}..${fromUnece.at(-1)}; an earlier release (2024-1) for ${fromGeoapify[0]}..${fromGeoapify.at(-1)}`,
    digest,
    sources: [
      'UNECE UN/LOCODE 2024-2, CSV parts 2 and 3, unchanged, from github.com/Open-Earth-Foundation/data-research@7b06aecbfba777bec2cd03bb38255ae20c0f763b',
      ...(fromGeoapify.length
        ? [
            `UN/LOCODE per country for ${fromGeoapify.length} countries without a UNECE part here (${fromGeoapify[0]}..${fromGeoapify.at(-1)}), from github.com/geoapify/un-locode@2d18b0928396713dfa30b096cbeabcda36de9ae3 (MIT): ${repaired.names} names without their diacritics, ${repaired.geocoded} entries geocoded by Geoapify placed by the World Port Index where it has them, else left out`,
          ]
        : []),
      ...(wpi.size
        ? [
            `Positions of ${fromWpiTotal} UN/LOCODE ports that have none in UN/LOCODE: NGA World Port Index (Pub. 150), UpdatedPub150.csv (${wpi.size} harbours with a UN/LOCODE) from github.com/JamesRexMiller4/shapely_tut@4f45cf9da4fe64318f538e71b04aabb383548f27 (2025-03-25)`,
          ]
        : []),
    ],
    licence:
      'UN/LOCODE: UNECE, provided free of charge as a service to its users (UN/LOCODE Manual 1.1.3); geoapify/un-locode: MIT; World Port Index: NGA, a US Government work',
    builtBy: 'scripts/ports/build-ports.ts',
    count: ports.length,
    fields: [
      'locode',
      'name',
      'nameAscii',
      'country',
      'subdivision',
      'lat',
      'lon',
      'function',
      'status',
      'area',
      'position',
    ],
    ports,
  };
  // One port a line: small diffs between releases.
  const text = `${JSON.stringify({ ...data, ports: [] }, null, 2).replace(
    '"ports": []',
    `"ports": [\n${ports.map((p) => `    ${JSON.stringify(p)}`).join(',\n')}\n  ]`,
  )}\n`;
  writeFileSync(PORTS_DATA_FILE, text);
  for (const c of counts)
    console.info(
      `${c.file}: ${c.entries} entries, ${c.ports} ports with a position (${c.fromWpi} from the World Port Index), ${c.noPosition} without`,
    );
  console.info(
    `${ports.length} ports (${fromUnece.length} countries from UNECE, ${fromGeoapify.length} from geoapify), ${(text.length / 1024).toFixed(0)} KiB, digest ${digest}`,
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
