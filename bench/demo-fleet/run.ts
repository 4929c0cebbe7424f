// Benchmark of the demo fleet's generator: 6 ships x 60 days of 1-minute samples (what `npm start` generates
// before its first upload), best of a few rounds.
// Run: npx tsx bench/demo-fleet/run.ts   (writes bench/results/demo-fleet.md)
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { CHANNELS, DEMO_SHIPS, generateShipDay } from '@portal/demo-fleet';

const DAY_MS = 86_400_000;
const DAYS = 60;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const load = loadavg()
  .map((l) => l.toFixed(1))
  .join(', ');

const times: number[] = [];
let rows = 0;
for (let round = 0; round < ROUNDS; round++) {
  const began = performance.now();
  rows = 0;
  for (const ship of DEMO_SHIPS)
    for (let d = 0; d < DAYS; d++)
      rows += generateShipDay(ship, new Date(Date.UTC(2026, 5, 1) + d * DAY_MS)).samples.timestamps.length;
  times.push(performance.now() - began);
}
const best = Math.min(...times);
const report = [
  '# Demo fleet generator',
  '',
  `${new Date().toISOString().slice(0, 10)}, ${cpus()[0]?.model ?? 'unknown CPU'} (${cpus().length} cores), load ${load}.`,
  '',
  `${DEMO_SHIPS.length} ships x ${DAYS} days: ${rows} rows x ${CHANNELS.length} channels; best of ${ROUNDS}: ` +
    `**${(best / 1000).toFixed(2)} s** (rounds: ${times.map((t) => (t / 1000).toFixed(2)).join(', ')} s).`,
  '',
].join('\n');
writeFileSync(join(import.meta.dirname, '..', 'results', 'demo-fleet.md'), report);
console.log(report);
