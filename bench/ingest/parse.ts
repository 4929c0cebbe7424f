/**
 * Parse throughput of the delimited-text reader against udsv and papaparse on a ~100 MB logger file
 * (50 numeric channels, one row per second). Run: npx tsx bench/ingest/parse.ts [--rows N] [--smoke]
 * Each parser runs in its own child process so that its peak RSS is its own. Every parser must read every row.
 * --smoke: 3,000 rows, one run each.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import Papa from 'papaparse';
import { inferSchema, initParser } from 'udsv';
import { parseDataFile } from '../../apps/api/src/readers/parse';
import {
  argument,
  BENCH_CSV_CONFIGURATION,
  BENCH_ROWS,
  benchCsv,
  CHANNELS,
  ensureBenchCsv,
  SMOKE,
} from './bench-file';

const RUNS = SMOKE ? 1 : 3;

const configuration = BENCH_CSV_CONFIGURATION;

const parsers: Record<string, (content: Buffer) => Promise<number>> = {
  async ours(content) {
    const parsed = await parseDataFile(
      { fileName: 'bench.csv', content },
      { readerId: 'delimited-text', configuration },
      { utcTimezoneOffsetInMinutes: 0 },
    );
    return parsed.rowCount;
  },
  async udsv(content) {
    const text = content.toString('utf8');
    const schema = inferSchema(text);
    const cols = initParser(schema).typedCols(text);
    return cols[0]?.length ?? 0;
  },
  async papaparse(content) {
    const text = content.toString('utf8');
    const result = Papa.parse<unknown[]>(text, {
      delimiter: ',',
      dynamicTyping: true,
      fastMode: true,
      skipEmptyLines: true,
    });
    return result.data.length - 1;
  },
};

async function runOne(name: string, file: string): Promise<void> {
  const parse = parsers[name];
  if (!parse) throw new Error(`No parser ${name}`);
  const content = readFileSync(file);
  const times: number[] = [];
  let rows = 0;
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    rows = await parse(content);
    times.push(performance.now() - t0);
  }
  const peakRssMb = process.resourceUsage().maxRSS / 1024;
  console.log(JSON.stringify({ name, rows, times, peakRssMb }));
}

async function main(): Promise<void> {
  const only = argument('--only');
  const rows = Number(argument('--rows') ?? BENCH_ROWS);
  if (only) return runOne(only, benchCsv(rows));
  const file = await ensureBenchCsv(rows);
  const size = statSync(file).size;
  const mb = size / 1e6;
  console.log(`File: ${mb.toFixed(1)} MB, ${rows.toLocaleString('en-US')} rows, ${CHANNELS} channels`);
  console.log(
    `Machine: ${os.cpus()[0]?.model} x${os.cpus().length}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${new Date().toISOString()}`,
  );
  const script = fileURLToPath(import.meta.url);
  console.log('| parser | best s | median s | MB/s (best) | MB/s (median) | peak RSS MB |');
  console.log('|---|---|---|---|---|---|');
  for (const name of Object.keys(parsers)) {
    const output = execFileSync(
      process.execPath,
      [...process.execArgv, script, '--only', name, '--rows', String(rows), ...(SMOKE ? ['--smoke'] : [])],
      { encoding: 'utf8', maxBuffer: 1 << 20 },
    );
    const line = output.trim().split('\n').pop()!;
    const r = JSON.parse(line) as { name: string; rows: number; times: number[]; peakRssMb: number };
    if (r.rows !== rows) throw new Error(`${name} read ${r.rows} rows, expected ${rows}`);
    const sorted = [...r.times].sort((a, b) => a - b);
    if (sorted.length === 0) throw new Error(`${name} reported no runs`);
    // Both indexes are in range of a non-empty list.
    const best = sorted[0]! / 1000;
    const median = sorted[Math.floor(sorted.length / 2)]! / 1000;
    console.log(
      `| ${name} | ${best.toFixed(2)} | ${median.toFixed(2)} | ${(mb / best).toFixed(0)} | ${(mb / median).toFixed(0)} | ${r.peakRssMb.toFixed(0)} |`,
    );
  }
}

await main();
