/**
 * Parse throughput of the delimited-text reader against udsv and papaparse on a ~100 MB logger file
 * (50 numeric channels, one row per second). Run: npx tsx bench/ingest/parse.ts [--rows N]
 * Each parser runs in its own child process so that its peak RSS is its own.
 */
import { execFileSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Papa from 'papaparse';
import { inferSchema, initParser } from 'udsv';
import { parseDataFile } from '../../apps/api/src/readers/parse';
import { argument, BENCH_CSV_CONFIGURATION, WORK_DIR } from './bench-file';

const workDir = WORK_DIR;
const CHANNELS = 50;
const RUNS = 3;

/** Deterministic pseudo-random numbers so every run parses the same file. */
function generator(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

async function generate(file: string, rows: number): Promise<void> {
  mkdirSync(path.dirname(file), { recursive: true });
  const out = createWriteStream(file);
  const random = generator(42);
  const header = [
    'Timestamp',
    ...Array.from({ length: CHANNELS }, (_, i) => `CH${String(i + 1).padStart(2, '0')}`),
  ].join(',');
  out.write(header + '\n');
  const start = Date.UTC(2026, 0, 1);
  let chunk = '';
  for (let r = 0; r < rows; r++) {
    const t = new Date(start + r * 1000).toISOString();
    let line = `${t.slice(0, 10)} ${t.slice(11, 19)}`;
    for (let c = 0; c < CHANNELS; c++) {
      const base = (c + 1) * 10;
      const v = base + (random() - 0.5) * base;
      line += ',' + (c % 5 === 0 ? Math.round(v).toString() : v.toFixed(1 + (c % 3)));
    }
    chunk += line + '\n';
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
      chunk = '';
    }
  }
  out.write(chunk);
  await new Promise<void>((resolve, reject) =>
    out.end((err?: Error | null) => (err ? reject(err) : resolve())),
  );
}

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
  const rows = Number(argument('--rows') ?? 300_000);
  const file = path.join(workDir, `ingest-${CHANNELS}ch-${rows}rows.csv`);
  if (only) return runOne(only, file);

  if (!existsSync(file)) {
    console.log(`Generating ${file} ...`);
    await generate(file, rows);
  }
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
      [...process.execArgv, script, '--only', name, '--rows', String(rows)],
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
