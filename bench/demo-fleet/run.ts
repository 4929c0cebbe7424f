// Benchmark of the demo fleet's generator: 6 ships x 60 days of 1-minute samples (what `npm start` generates
// before its first upload), best of a few rounds.
// Run: npx tsx bench/demo-fleet/run.ts   (writes bench/results/demo-fleet.md)
//      npx tsx bench/demo-fleet/run.ts --smoke   (6 ships x 2 days, one round; its table to bench/.work/)
// Every run checks what it generated: a day's minutes in order inside the day, every channel a column of the
// timestamps' length, and the same day generated twice the same bits.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { CHANNELS, DEMO_SHIPS, generateShipDay } from '@portal/demo-fleet';

const DAY_MS = 86_400_000;
const smoke = process.argv.includes('--smoke') || process.env.BENCH_SMOKE === '1';
const DAYS = smoke ? 2 : 60;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (smoke ? 1 : 3));
const FIRST_DAY = Date.UTC(2026, 5, 1);
const load = loadavg()
  .map((l) => l.toFixed(1))
  .join(', ');

const problems: string[] = [];
const times: number[] = [];
let rows = 0;
for (let round = 0; round < ROUNDS; round++) {
  const began = performance.now();
  rows = 0;
  for (const ship of DEMO_SHIPS)
    for (let d = 0; d < DAYS; d++)
      rows += generateShipDay(ship, new Date(FIRST_DAY + d * DAY_MS)).samples.timestamps.length;
  times.push(performance.now() - began);
}

// Checked outside the timed rounds.
const sameBits = (a: Float64Array, b: Float64Array | undefined) =>
  b !== undefined &&
  Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
for (const ship of DEMO_SHIPS) {
  for (let d = 0; d < Math.min(DAYS, 2); d++) {
    const dayStart = FIRST_DAY + d * DAY_MS;
    const { samples } = generateShipDay(ship, new Date(dayStart));
    const again = generateShipDay(ship, new Date(dayStart)).samples;
    const ts = samples.timestamps;
    const where = `${ship.key} ${new Date(dayStart).toISOString().slice(0, 10)}`;
    if (ts.length < 1000) problems.push(`${where}: only ${ts.length} minutes`);
    if (ts.some((t, i) => t < dayStart || t >= dayStart + DAY_MS || (i > 0 && !(t > ts[i - 1]!))))
      problems.push(`${where}: timestamps out of order or outside the day`);
    for (const c of CHANNELS) {
      const column = samples.channels[c.field];
      if (!column) continue; // a ship may not log every channel
      if (column.length !== ts.length) problems.push(`${where}: ${c.field} has ${column.length} values`);
      if (!sameBits(column, again.channels[c.field]))
        problems.push(`${where}: ${c.field} differs a second time`);
    }
    if (!Object.keys(samples.channels).length) problems.push(`${where}: no channel`);
  }
}

const best = Math.min(...times);
const report = [
  `# Demo fleet generator${smoke ? ' (smoke run: figures not worth reading)' : ''}`,
  '',
  `${new Date().toISOString().slice(0, 10)}, ${cpus()[0]?.model ?? 'unknown CPU'} (${cpus().length} cores), load ${load}.`,
  '',
  `${DEMO_SHIPS.length} ships x ${DAYS} days: ${rows} rows x ${CHANNELS.length} channels; best of ${ROUNDS}: ` +
    `**${(best / 1000).toFixed(2)} s** (rounds: ${times.map((t) => (t / 1000).toFixed(2)).join(', ')} s).`,
  '',
].join('\n');
const out = join(
  import.meta.dirname,
  '..',
  ...(smoke ? ['.work', 'demo-fleet-smoke.md'] : ['results', 'demo-fleet.md']),
);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, report);
console.log(report);
if (problems.length) {
  console.error(`FAILED:\n${problems.join('\n')}`);
  process.exit(1);
}
