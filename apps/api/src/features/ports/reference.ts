import { readFileSync } from 'node:fs';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';

/**
 * The sea-port reference that ships with the product (data/ports.json, made by scripts/ports/build-ports.ts): read
 * from the file beside this module, never downloaded. `ensurePortReference` runs at every start (server.ts) and
 * replaces the database's copy, in one transaction, when the file's digest differs from the loaded one; a start
 * with the same file does nothing but one read of a row.
 */

/** [locode, name, nameAscii, country, subdivision, lat, lon, function, status, area, position]. */
export type PortDataRow = [
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

export interface PortsDataFile {
  release: string;
  digest: string;
  sources: string[];
  licence: string;
  count: number;
  ports: PortDataRow[];
}

export const PORTS_DATA_URL = new URL('./data/ports.json', import.meta.url);

let cached: PortsDataFile | undefined;

/** The shipped data file, read once per process. */
export function portsDataFile(): PortsDataFile {
  cached ??= JSON.parse(readFileSync(PORTS_DATA_URL, 'utf8')) as PortsDataFile;
  return cached;
}

export interface PortReferenceLoad {
  release: string;
  digest: string;
  count: number;
  /** False when the database held this reference already. */
  loaded: boolean;
  ms: number;
}

/** Serializes the load between processes that start together (scale-out): the second finds it done. */
const LOCK_KEY = 0x706f7274; // 'port'

/** Loads the shipped reference into `ports` when the database holds another one (or none). */
export async function ensurePortReference(
  db: Kysely<Database>,
  data: PortsDataFile = portsDataFile(),
): Promise<PortReferenceLoad> {
  const began = performance.now();
  const result = (loaded: boolean): PortReferenceLoad => ({
    release: data.release,
    digest: data.digest,
    count: data.ports.length,
    loaded,
    ms: Math.round(performance.now() - began),
  });
  const current = await db.selectFrom('port_reference').select('digest').executeTakeFirst();
  if (current?.digest === data.digest) return result(false);
  const loaded = await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${LOCK_KEY})`.execute(trx);
    const again = await trx.selectFrom('port_reference').select('digest').executeTakeFirst();
    if (again?.digest === data.digest) return false;
    await trx.deleteFrom('ports').execute();
    // One statement of eleven arrays: a few times faster than rows of values, on PGlite most of all.
    const column = <T>(i: number) => data.ports.map((p) => p[i] as T);
    await sql`
      insert into ports (locode, name, name_ascii, country, subdivision, lat, lon, functions, status, area,
                         position_source)
      select * from unnest(
        ${column<string>(0)}::text[], ${column<string>(1)}::text[], ${column<string | null>(2)}::text[],
        ${column<string>(3)}::text[], ${column<string | null>(4)}::text[], ${column<number>(5)}::float8[],
        ${column<number>(6)}::float8[], ${column<string>(7)}::text[], ${column<string>(8)}::text[],
        ${column<string | null>(9)}::text[], ${column<string>(10)}::text[])`.execute(trx);
    const row = {
      release: data.release,
      digest: data.digest,
      sources: JSON.stringify(data.sources),
      count: data.ports.length,
      loaded_on: new Date(),
    };
    await trx
      .insertInto('port_reference')
      .values({ singleton: true, ...row })
      .onConflict((oc) => oc.column('singleton').doUpdateSet(row))
      .execute();
    return true;
  });
  return result(loaded);
}
