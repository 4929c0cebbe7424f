/**
 * What the shared rate limits (apps/api/src/storage/rate-limits.ts, decision 0135) add to a limited request: one
 * Fastify app with one route limited by @fastify/rate-limit, asked over app.inject one request at a time and then
 * 20 at a time, with the plugin's in-memory store and with the shared store on PGlite (in memory) and on the
 * PostgreSQL of DATABASE_URL (when set; the database gets the migrations, and the bench deletes its own counters).
 * Each request has a key of its own among 1,000 (addresses), so the upsert inserts and updates as a sign-in does.
 *
 * Run: [DATABASE_URL=postgres://postgres@127.0.0.1:5432/<own db>] npx tsx bench/rate-limits/run.ts [--requests 2000] [--out file]
 * --smoke: 100 requests per store; fails when a request is not answered 200 or a limit is not reached when it
 * should be. Results: bench/results/rate-limits.md (the smoke run's table in bench/.work/rate-limits-smoke.md).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { openDatabase, type DatabaseHandle } from '../../apps/api/src/storage/database';
import { migrateToLatest } from '../../apps/api/src/db/migrate';
import { sharedRateLimitStore } from '../../apps/api/src/storage/rate-limits';

const here = path.dirname(fileURLToPath(import.meta.url));
const arg = (name: string) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const smoke = process.argv.includes('--smoke') || process.env.BENCH_SMOKE === '1';
const REQUESTS = Number(arg('--requests') ?? (smoke ? 100 : 2000));
const CONCURRENT = 20;
const KEYS = 1000;

async function appWith(database: DatabaseHandle | undefined) {
  const app = Fastify();
  await app.register(rateLimit, {
    global: false,
    ...(database ? { store: sharedRateLimitStore({ db: database.db }) } : {}),
  });
  app.get('/limited', { config: { rateLimit: { max: 1_000_000, timeWindow: '1 minute' } } }, async () => ({
    ok: true,
  }));
  app.get('/tight', { config: { rateLimit: { max: 2, timeWindow: '1 minute' } } }, async () => ({
    ok: true,
  }));
  await app.ready();
  return app;
}

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? NaN;
};

async function measure(name: string, database: DatabaseHandle | undefined) {
  const app = await appWith(database);
  let i = 0;
  const ask = async () => {
    const remoteAddress = `10.${Math.floor((i % KEYS) / 250)}.0.${i % 250}`;
    i++;
    const t0 = performance.now();
    const response = await app.inject({ url: '/limited', remoteAddress });
    const ms = performance.now() - t0;
    if (response.statusCode !== 200) throw new Error(`${name}: answered ${response.statusCode}`);
    return ms;
  };
  for (let k = 0; k < Math.min(50, REQUESTS); k++) await ask(); // warm-up
  const one: number[] = [];
  for (let k = 0; k < REQUESTS; k++) one.push(await ask());
  const batches: number[] = [];
  const t0 = performance.now();
  for (let k = 0; k < REQUESTS / CONCURRENT; k++) {
    const started = performance.now();
    await Promise.all(Array.from({ length: CONCURRENT }, ask));
    batches.push(performance.now() - started);
  }
  const perSecond = (REQUESTS / (performance.now() - t0)) * 1000;
  // The limit still holds: a third request of one address is refused.
  const tight = [];
  for (let k = 0; k < 3; k++)
    tight.push((await app.inject({ url: '/tight', remoteAddress: '10.99.0.1' })).statusCode);
  if (tight.join() !== '200,200,429') throw new Error(`${name}: the limit of 2 answered ${tight.join()}`);
  await app.close();
  return {
    name,
    p50: percentile(one, 50),
    p95: percentile(one, 95),
    mean: one.reduce((a, b) => a + b, 0) / one.length,
    batchP50: percentile(batches, 50),
    perSecond,
  };
}

async function main() {
  const loadStart = loadavg();
  const results = [await measure('in memory (the plugin’s own store, before)', undefined)];
  const pglite = await openDatabase({ dataDir: 'memory://' });
  await migrateToLatest(pglite.db);
  results.push(await measure('shared, PGlite in memory', pglite));
  await pglite.close();
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl) {
    const postgres = await openDatabase({ databaseUrl, dataDir: 'memory://', poolSize: 10 });
    await migrateToLatest(postgres.db);
    await postgres.db.deleteFrom('rate_limit_counters').execute();
    results.push(await measure('shared, PostgreSQL (localhost)', postgres));
    await postgres.db.deleteFrom('rate_limit_counters').execute();
    await postgres.close();
  }
  const f = (v: number) => v.toFixed(3);
  const base = results[0]!;
  const lines = [
    `# Rate limits: the time a limited request takes with each store${smoke ? ' (smoke run: figures not worth reading)' : ''}`,
    '',
    `${REQUESTS} requests one at a time over app.inject (after 50 warm-up), then ${REQUESTS} in batches of ${CONCURRENT}; ${KEYS} keys. ${cpus().length} × ${cpus()[0]?.model.trim()}; load average at the start ${loadStart
      .map((l) => l.toFixed(2))
      .join(
        ' / ',
      )} (the machine is shared with other agents' work). \`npx tsx bench/rate-limits/run.ts ${process.argv.slice(2).join(' ')}\`, ${new Date().toISOString().slice(0, 10)}.`,
    '',
    `| store | p50 ms | p95 ms | mean ms | added mean ms | batch of ${CONCURRENT} p50 ms | requests/s in batches |`,
    '|---|---|---|---|---|---|---|',
    ...results.map(
      (r) =>
        `| ${r.name} | ${f(r.p50)} | ${f(r.p95)} | ${f(r.mean)} | ${r === base ? '' : f(r.mean - base.mean)} | ${f(r.batchP50)} | ${r.perSecond.toFixed(0)} |`,
    ),
    '',
    `Load average at the end: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' / ')}.`,
  ];
  console.log(lines.join('\n'));
  const file =
    arg('--out') ??
    path.join(here, '..', ...(smoke ? ['.work', 'rate-limits-smoke.md'] : ['results', 'rate-limits.md']));
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, lines.join('\n') + '\n');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
