// Benchmark of portAt (apps/api/src/features/ports/port-at.ts): which port a position is in, for a year of minute
// positions of one ship (525,600 lookups) against the shipped reference (features/ports/data/ports.json) and a few
// ports of an organization, best of a few rounds; and the index's build.
// Run: npx tsx bench/ports/port-at.ts            (writes bench/results/ports.md)
//      npx tsx bench/ports/port-at.ts --smoke    (a week, one round; its table to bench/.work/)
// Every run checks its answers: every 97th position against a search of every port without the index.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { buildPortIndex, portAt, type PortShape } from '../../apps/api/src/features/ports/port-at';
import { portsDataFile } from '../../apps/api/src/features/ports/reference';

const smoke = process.argv.includes('--smoke') || process.env.BENCH_SMOKE === '1';
const MINUTES = smoke ? 7 * 1440 : 365 * 1440;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (smoke ? 1 : 5));
const START_MS = Date.UTC(2026, 0, 1);

interface BenchPort extends PortShape {
  name: string;
}

const data = portsDataFile();
const reference: BenchPort[] = data.ports.map((p) => ({
  locode: p[0],
  name: p[1],
  lat: p[5],
  lon: p[6],
  radiusNm: 5,
}));
const byCode = new Map(reference.map((p) => [p.locode!, p]));
// An organization's ports: a correction of Rotterdam, a terminal of its own as a polygon, one active half a year.
const own: BenchPort[] = [
  { ...byCode.get('NLRTM')!, radiusNm: 8, organization: true },
  {
    locode: null,
    name: 'Own terminal',
    lat: 53.55,
    lon: 9.9,
    radiusNm: 5,
    organization: true,
    polygon: [
      [9.85, 53.52],
      [9.97, 53.52],
      [9.97, 53.58],
      [9.85, 53.58],
      [9.85, 53.52],
    ],
  },
  {
    locode: null,
    name: 'Seasonal anchorage',
    lat: 51.5,
    lon: 3.3,
    radiusNm: 3,
    organization: true,
    activeFromMs: START_MS,
    activeUntilMs: START_MS + 182 * 86_400_000,
  },
];
const ports = [...reference, ...own];

/**
 * A ship's year: it calls at real ports in turn (two days at each, drifting a few cables around the point) and
 * sails between them at 14 knots in a straight line of latitude and longitude.
 */
const ROUTE = [
  'NLRTM',
  'DEHAM',
  'NOOSL',
  'SEGOT',
  'PLGDN',
  'GBFXT',
  'ESALG',
  'USNYC',
  'USHOU',
  'BRSSZ',
  'GBBEL',
]
  .map((c) => byCode.get(c))
  .filter((p): p is BenchPort => Boolean(p));
function track(): { lat: Float64Array; lon: Float64Array } {
  const lat = new Float64Array(MINUTES);
  const lon = new Float64Array(MINUTES);
  let minute = 0;
  let leg = 0;
  let seed = 42;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31 - 0.5;
  while (minute < MINUTES) {
    const from = ROUTE[leg % ROUTE.length]!;
    const to = ROUTE[(leg + 1) % ROUTE.length]!;
    for (let m = 0; m < 2 * 1440 && minute < MINUTES; m++, minute++) {
      lat[minute] = from.lat + random() * 0.01;
      lon[minute] = from.lon + random() * 0.01;
    }
    const dLat = to.lat - from.lat;
    const dLon = to.lon - from.lon;
    const nm = Math.hypot(dLat * 60, dLon * 60 * Math.cos((((from.lat + to.lat) / 2) * Math.PI) / 180));
    const steps = Math.max(1, Math.round((nm / 14) * 60));
    for (let m = 0; m < steps && minute < MINUTES; m++, minute++) {
      lat[minute] = from.lat + (dLat * m) / steps;
      lon[minute] = from.lon + (dLon * m) / steps;
    }
    leg++;
  }
  return { lat, lon };
}

const { lat, lon } = track();
const buildBegan = performance.now();
let index = buildPortIndex(ports);
const buildMs = performance.now() - buildBegan;

const times: number[] = [];
let inPort = 0;
for (let round = 0; round < ROUNDS; round++) {
  index = buildPortIndex(ports);
  inPort = 0;
  const began = performance.now();
  for (let i = 0; i < MINUTES; i++) if (portAt(index, lat[i]!, lon[i]!, START_MS + i * 60_000)) inPort++;
  times.push(performance.now() - began);
}

// Checked outside the timed rounds: the same answer as a search of every port (its own rules written out again).
const problems: string[] = [];
function bruteForce(la: number, lo: number, atMs: number): BenchPort | null {
  const active = (p: BenchPort) =>
    (p.activeFromMs ?? -Infinity) <= atMs && atMs < (p.activeUntilMs ?? Infinity);
  const inside = (p: BenchPort) => {
    if (p.polygon) {
      let yes = false;
      const ring = p.polygon;
      for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
        const [xi, yi] = ring[i]!;
        const [xj, yj] = ring[j]!;
        if (yi > la !== yj > la && lo < xi + ((la - yi) / (yj - yi)) * (xj - xi)) yes = !yes;
      }
      return yes;
    }
    const cos = Math.cos((la * Math.PI) / 180);
    return Math.hypot(la - p.lat, (lo - p.lon) * cos) * 60 <= p.radiusNm;
  };
  const distance = (p: BenchPort) => Math.hypot(la - p.lat, (lo - p.lon) * Math.cos((la * Math.PI) / 180));
  const pick = (list: BenchPort[]) =>
    list
      .filter(inside)
      .sort(
        (a, b) => Number(Boolean(b.polygon)) - Number(Boolean(a.polygon)) || distance(a) - distance(b),
      )[0] ?? null;
  const ownHit = pick(own.filter(active));
  if (ownHit) return ownHit;
  const corrected = new Set(own.filter(active).flatMap((p) => (p.locode ? [p.locode] : [])));
  return pick(reference.filter((p) => !corrected.has(p.locode!)));
}
let checked = 0;
for (let i = 0; i < MINUTES; i += 97) {
  checked++;
  const atMs = START_MS + i * 60_000;
  const fast = portAt(index, lat[i]!, lon[i]!, atMs);
  const slow = bruteForce(lat[i]!, lon[i]!, atMs);
  if (fast !== slow)
    problems.push(
      `minute ${i} (${lat[i]!.toFixed(4)}, ${lon[i]!.toFixed(4)}): ${fast?.name} but ${slow?.name}`,
    );
}
if (inPort === 0 || inPort === MINUTES) problems.push(`${inPort} of ${MINUTES} minutes in a port: no mix`);

const best = Math.min(...times);
const load = loadavg()
  .map((l) => l.toFixed(1))
  .join(', ');
const report = [
  `# portAt${smoke ? ' (smoke run: figures not worth reading)' : ''}`,
  '',
  `${new Date().toISOString().slice(0, 10)}, ${cpus()[0]?.model.trim() ?? 'unknown CPU'} (${cpus().length} cores), load ${load}.`,
  '',
  `${ports.length} ports (${reference.length} of the reference, ${data.release}; ${own.length} of an organization).`,
  `Index build: ${buildMs.toFixed(0)} ms, ${index.cells.size} cells.`,
  `${MINUTES} minute positions (${(MINUTES / 1440).toFixed(0)} days, ${inPort} in a port): best of ${ROUNDS}: **${best.toFixed(0)} ms** (${((best * 1e6) / MINUTES).toFixed(0)} ns a lookup; rounds: ${times.map((t) => t.toFixed(0)).join(', ')} ms).`,
  `Checked: ${checked} positions against a search of every port, ${problems.length} differences.`,
  '',
].join('\n');
const out = smoke
  ? join(import.meta.dirname, '..', '.work', 'ports.md')
  : join(import.meta.dirname, '..', 'results', 'ports.md');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, report);
console.info(report);
if (problems.length) {
  console.error(problems.slice(0, 20).join('\n'));
  process.exit(1);
}
