import fs from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline, Readable } from 'node:stream';
import { promisify } from 'node:util';
import { constants as zlibConstants, createGunzip, gunzip, gzip } from 'node:zlib';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/**
 * Where the originals of uploaded data files are kept, as received, for re-parsing and audit
 * (docs/decisions/0050-storage-performance.md, point 9):
 * - on a PostgreSQL server, in the database (`data_file_originals`, 8 MB parts), shared by every process of a
 *   scaled-out deployment;
 * - on the embedded database, as files in the data directory beside it (`<DATA_DIR>/originals/<ship>/<file>`), so
 *   that the one thread that runs PGlite does not spend the upload's time copying the original into it;
 * - with ORIGINALS_URL, in an S3-compatible bucket (originals-s3.ts), shared by every API node of a scaled-out
 *   deployment on either database.
 * Both take the original raw during the import (inside its transaction: a file that does not import leaves no
 * original), and gzip it once the import has committed, from the bytes still in memory; what a stopped process left
 * raw, the compress-originals job sweeps.
 */
export interface OriginalStore {
  readonly kind: 'database' | 'directory' | 'bucket';
  /** The directory of the files (directory store), the table (database store), or s3://bucket/prefix/. */
  readonly location: string;
  /**
   * Stores a file's original raw, inside the import's transaction `trx`. `between` runs after each piece stored: it
   * answers true to stop early (the import found the file unreadable; its transaction rolls back).
   */
  storeRaw(
    trx: Kysely<Database>,
    key: OriginalKey,
    content: Buffer,
    between: () => Promise<boolean>,
  ): Promise<void>;
  /** The import's transaction rolled back: what storeRaw wrote outside the database goes. */
  discard(key: OriginalKey): Promise<void>;
  /** The import committed: gzip the original from its bytes still in memory (not awaited by the upload's answer). */
  compressAfterCommit(db: Kysely<Database>, key: OriginalKey, content: Buffer): Promise<void>;
  /** The original, uncompressed; null when none is stored. */
  read(db: Kysely<Database>, key: OriginalKey): Promise<Buffer | null>;
  /** The original, uncompressed, as it is read (one 8 MB piece in memory at a time at most); null when none is stored. */
  stream(db: Kysely<Database>, key: OriginalKey): Promise<Readable | null>;
  /** Data files deleted (committed): their originals go too (in the database, they went with the rows). */
  removeDeleted(keys: OriginalKey[]): Promise<void>;
  /** Ids of the data files whose original is stored (tests: no file without its original, none left over). */
  storedFileIds(db: Kysely<Database>): Promise<string[]>;
  /** The compress-originals job: compresses what was left raw; the directory store also removes left-over files. */
  sweep(db: Kysely<Database>): Promise<SweepResult>;
  /** Waits for this store's compressions under way, and removes a throwaway store (the directory of an in-memory database). */
  close(): Promise<void>;
}

export interface OriginalKey {
  facilityId: string;
  dataFileId: string;
}

export interface SweepResult {
  /** Originals (directory) or parts of originals (database) compressed. */
  compressed: number;
  bytesBefore: number;
  bytesAfter: number;
  /** Files of the directory store whose data file no longer exists (an import stopped half-way, a deletion interrupted). */
  removed: number;
}

/** A file (directory store) or object (bucket store) of an original, as its store lists it. */
export interface ListedOriginal {
  facilityId: string;
  dataFileId: string;
  /** What follows the data file id in its name: '' raw, '.gz' compressed, another suffix of the store's. */
  suffix: string;
  /** When it was written, epoch ms (0 where the store does not need it). */
  modified: number;
}

/**
 * What the sweep of a store that keeps each state of an original as a file or object of its own (directory, bucket)
 * needs of it: they differ only in how they list, read and write them.
 */
export interface SweptOriginals {
  /** Data files being imported or compressed in this process: left alone. */
  busy: Set<string>;
  list(): Promise<ListedOriginal[]>;
  /** Suffixes of an original stored compressed: a raw one beside it is what a stopped compression left. */
  compressed: readonly string[];
  /** Suffixes of what a stopped compression left half-written: removed. */
  partial: readonly string[];
  /** Whether the files of a data file that does not exist, the newest written at `newest`, are left over (not an import under way in another process). */
  leftOver(newest: number): boolean;
  remove(key: OriginalKey, suffix: string): Promise<void>;
  removeAll(key: OriginalKey): Promise<void>;
  /** The raw original; null when it went meanwhile. */
  readRaw(key: OriginalKey): Promise<Buffer | null>;
  /** Stores the original compressed (or kept as it is when gzip would not shrink it) and removes the raw one; answers the bytes stored. */
  compress(key: OriginalKey, content: Buffer): Promise<number>;
}

/**
 * The compress-originals job of the directory and bucket stores: removes the originals of data files that no longer
 * exist (once left over), what a stopped compression left, and compresses what was left raw, one original in memory
 * at a time.
 */
export async function sweepOriginals(db: Kysely<Database>, store: SweptOriginals): Promise<SweepResult> {
  const { busy } = store;
  const result: SweepResult = { compressed: 0, bytesBefore: 0, bytesAfter: 0, removed: 0 };
  const byId = new Map<string, { facilityId: string; suffixes: Set<string>; newest: number }>();
  for (const listed of await store.list()) {
    if (!ORIGINAL_UUID.test(listed.dataFileId) || busy.has(listed.dataFileId)) continue;
    const entry = byId.get(listed.dataFileId) ?? {
      facilityId: listed.facilityId,
      suffixes: new Set<string>(),
      newest: 0,
    };
    entry.suffixes.add(listed.suffix);
    entry.newest = Math.max(entry.newest, listed.modified);
    byId.set(listed.dataFileId, entry);
  }
  const ids = [...byId.keys()];
  const existing = new Set<string>();
  for (let at = 0; at < ids.length; at += 500) {
    const rows = await db
      .selectFrom('data_files')
      .select('id')
      .where('id', 'in', ids.slice(at, at + 500))
      .execute();
    for (const row of rows) existing.add(row.id);
  }
  for (const [dataFileId, { facilityId, suffixes, newest }] of byId) {
    // Imported or compressed since the listing: left for the next sweep.
    if (busy.has(dataFileId)) continue;
    const key = { facilityId, dataFileId };
    if (!existing.has(dataFileId)) {
      if (!store.leftOver(newest)) continue;
      await store.removeAll(key);
      result.removed++;
      continue;
    }
    for (const suffix of store.partial) if (suffixes.has(suffix)) await store.remove(key, suffix);
    if (!suffixes.has('')) continue;
    if (store.compressed.some((suffix) => suffixes.has(suffix))) {
      // Stopped between storing the compressed original and removing the raw one.
      await store.remove(key, '');
      continue;
    }
    busy.add(dataFileId);
    try {
      const raw = await store.readRaw(key);
      if (!raw) continue;
      const stored = await store.compress(key, raw);
      if (stored < raw.length) {
        result.compressed++;
        result.bytesBefore += raw.length;
        result.bytesAfter += stored;
      }
    } finally {
      busy.delete(dataFileId);
    }
  }
  return result;
}

/** The original is stored (database) and compressed (both) in pieces of this size: bounded rows and memory. */
export const ORIGINAL_PART_BYTES = 8 * 1024 * 1024;

/**
 * One piece gzip'ed Huffman-only in the thread pool (twice as fast as level 1 for 3% more bytes on logger CSV,
 * bench/results/ingest.md), or kept as it is when that does not shrink it. Each is a complete gzip member, so the
 * pieces of a file can follow one another in one .gz.
 */
async function compressPiece(piece: Buffer): Promise<{ compression: 'gzip' | 'none'; content: Buffer }> {
  const gz = await gzipPiece(piece);
  return gz.length < piece.length
    ? { compression: 'gzip', content: gz }
    : { compression: 'none', content: piece };
}

/** A piece as one gzip member, Huffman-only, in the thread pool. */
const gzipPiece = (piece: Buffer) => gzipAsync(piece, { level: 1, strategy: zlibConstants.Z_HUFFMAN_ONLY });

/** A whole original gzip'ed as the stores keep it: one member per 8 MB piece, one after the other. */
export async function gzipWhole(content: Buffer): Promise<Buffer> {
  const members: Buffer[] = [];
  for (const piece of pieces(content)) members.push(await gzipPiece(piece));
  return members.length === 1 ? members[0]! : Buffer.concat(members);
}

function* pieces(content: Buffer): Generator<Buffer> {
  for (let at = 0; at === 0 || at < content.length; at += ORIGINAL_PART_BYTES)
    yield content.subarray(at, at + ORIGINAL_PART_BYTES);
}

/** Compressions under way in this process (every store), awaited on shutdown, by benchmarks and tests. */
const compressing = new Set<Promise<unknown>>();

/** Compressions under way, in this process and in one store (its own set). */
export function compressions() {
  const own = new Set<Promise<unknown>>();
  return {
    track(work: Promise<unknown>, what: string): Promise<void> {
      const tracked = work.then(
        () => undefined,
        (error: unknown) =>
          console.warn(
            `compressing ${what} is left to the compress-originals job: ${(error as Error).message}`,
          ),
      );
      for (const set of [compressing, own]) {
        set.add(tracked);
        void tracked.finally(() => set.delete(tracked));
      }
      return tracked;
    },
    async settled(): Promise<void> {
      while (own.size > 0) await Promise.all([...own]);
    },
  };
}

/** Resolves when the originals this process is compressing are stored compressed (shutdown, benchmarks, tests). */
export async function originalsCompressed(): Promise<void> {
  while (compressing.size > 0) await Promise.all([...compressing]);
}

/** A gzip'ed stream read uncompressed; an error of either side ends the other (pipeline). */
export const gunzipped = (compressed: Readable): Readable =>
  pipeline(compressed, createGunzip(), () => undefined);

const isMissing = (error: unknown) => (error as { code?: string }).code === 'ENOENT';

/** The originals in `data_file_originals`: 8 MB parts, 'pending' (raw) until gzip'ed, then 'gzip' or 'none'. */
export function databaseOriginalStore(): OriginalStore {
  /** Stores a pending part compressed, only while still pending (compressed meanwhile elsewhere, or deleted: left alone). */
  async function compressPendingPart(
    db: Kysely<Database>,
    key: OriginalKey & { part: number },
    raw: Buffer,
  ): Promise<number | null> {
    const compressed = await compressPiece(raw);
    const updated = await db
      .updateTable('data_file_originals')
      .set({ compression: compressed.compression, content: compressed.content })
      .where('facility_id', '=', key.facilityId)
      .where('data_file_id', '=', key.dataFileId)
      .where('part', '=', key.part)
      .where('compression', '=', 'pending')
      .executeTakeFirst();
    return Number(updated.numUpdatedRows) > 0 ? compressed.content.length : null;
  }
  const underWay = compressions();

  return {
    kind: 'database',
    location: 'data_file_originals',
    async storeRaw(trx, key, content, between) {
      let part = 0;
      for (const piece of pieces(content)) {
        await trx
          .insertInto('data_file_originals')
          .values({
            facility_id: key.facilityId,
            data_file_id: key.dataFileId,
            part: part++,
            compression: 'pending',
            content: piece,
          })
          .execute();
        if (await between()) return;
      }
    },
    async discard() {
      // The rows went with the transaction.
    },
    compressAfterCommit(db, key, content) {
      return underWay.track(
        (async () => {
          let part = 0;
          for (const piece of pieces(content)) await compressPendingPart(db, { ...key, part: part++ }, piece);
        })(),
        `the original of data file ${key.dataFileId}`,
      );
    },
    async read(db, key) {
      const rows = await db
        .selectFrom('data_file_originals')
        .select(['compression', 'content'])
        .where('facility_id', '=', key.facilityId)
        .where('data_file_id', '=', key.dataFileId)
        .orderBy('part')
        .execute();
      if (rows.length === 0) return null;
      // 'none' (kept as it is) and 'pending' (not compressed yet) are the bytes themselves.
      const parts = await Promise.all(
        rows.map((row) => (row.compression === 'gzip' ? gunzipAsync(row.content) : Buffer.from(row.content))),
      );
      return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
    },
    async stream(db, key) {
      const parts = await db
        .selectFrom('data_file_originals')
        .select('part')
        .where('facility_id', '=', key.facilityId)
        .where('data_file_id', '=', key.dataFileId)
        .orderBy('part')
        .execute();
      if (parts.length === 0) return null;
      // One part read and gunzipped at a time, as the reader asks for it.
      return Readable.from(
        (async function* () {
          for (const { part } of parts) {
            const row = await db
              .selectFrom('data_file_originals')
              .select(['compression', 'content'])
              .where('facility_id', '=', key.facilityId)
              .where('data_file_id', '=', key.dataFileId)
              .where('part', '=', part)
              .executeTakeFirst();
            if (!row)
              throw new Error(`a part of the original of data file ${key.dataFileId} went while it was read`);
            yield row.compression === 'gzip' ? await gunzipAsync(row.content) : Buffer.from(row.content);
          }
        })(),
      );
    },
    async removeDeleted() {
      // ON DELETE CASCADE took the rows with their data files.
    },
    async storedFileIds(db) {
      const rows = await db.selectFrom('data_file_originals').select('data_file_id').distinct().execute();
      return rows.map((r) => r.data_file_id);
    },
    /**
     * Every pending part, one (at most 8 MB) in memory at a time, each rewritten in its own statement only while
     * still pending: several workers, or a job retried after a crash, never compress a part twice, and a part read
     * meanwhile is always whole.
     */
    async sweep(db) {
      const result: SweepResult = { compressed: 0, bytesBefore: 0, bytesAfter: 0, removed: 0 };
      for (;;) {
        const keys = await db
          .selectFrom('data_file_originals')
          .select(['facility_id', 'data_file_id', 'part'])
          .where('compression', '=', 'pending')
          .orderBy('data_file_id')
          .orderBy('part')
          .limit(32)
          .execute();
        if (keys.length === 0) return result;
        for (const key of keys) {
          const row = await db
            .selectFrom('data_file_originals')
            .select('content')
            .where('facility_id', '=', key.facility_id)
            .where('data_file_id', '=', key.data_file_id)
            .where('part', '=', key.part)
            .where('compression', '=', 'pending')
            .executeTakeFirst();
          if (!row) continue;
          const stored = await compressPendingPart(
            db,
            { facilityId: key.facility_id, dataFileId: key.data_file_id, part: key.part },
            Buffer.from(row.content),
          );
          if (stored === null) continue;
          result.compressed++;
          result.bytesBefore += row.content.length;
          result.bytesAfter += stored;
        }
      }
    },
    close: () => underWay.settled(),
  };
}

/** The names a store gives its originals: facility and data file ids. */
export const ORIGINAL_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The originals as files: `<root>/<facility id>/<data file id>` raw, `<data file id>.gz` compressed (a gzip member per
 * 8 MB piece), `<data file id>.gz.partial` while being written. One process owns an embedded database, so this one
 * knows which files are being imported or compressed (`busy`) and the sweep leaves those alone.
 */
export function directoryOriginalStore(root: string, options: { throwaway?: boolean } = {}): OriginalStore {
  const busy = new Set<string>();
  const underWay = compressions();
  const rawPath = (key: OriginalKey) => path.join(root, key.facilityId, key.dataFileId);
  const gzPath = (key: OriginalKey) => `${rawPath(key)}.gz`;
  const partialPath = (key: OriginalKey) => `${rawPath(key)}.gz.partial`;
  const remove = async (file: string) =>
    unlink(file).catch((error: unknown) => (isMissing(error) ? undefined : Promise.reject(error)));
  const removeAll = async (key: OriginalKey) => {
    await remove(rawPath(key));
    await remove(gzPath(key));
    await remove(partialPath(key));
  };

  /** Data files deleted while their original was being compressed: the compression removes what it wrote. */
  const deletedWhileBusy = new Set<string>();

  /** Writes the .gz beside the raw file and removes the raw one; keeps the raw file when gzip does not shrink it. Answers the bytes stored. */
  async function compressFile(key: OriginalKey, content: Buffer): Promise<number> {
    const partial = partialPath(key);
    const handle = await open(partial, 'w');
    let bytes = 0;
    try {
      for (const piece of pieces(content)) {
        const gz = await gzipPiece(piece);
        await handle.write(gz);
        bytes += gz.length;
      }
    } finally {
      await handle.close();
    }
    if (bytes >= content.length) {
      await remove(partial);
    } else {
      await rename(partial, gzPath(key));
      await remove(rawPath(key));
    }
    // Its data file was deleted meanwhile: nothing of it stays.
    if (deletedWhileBusy.delete(key.dataFileId)) await removeAll(key);
    return Math.min(bytes, content.length);
  }

  return {
    kind: 'directory',
    location: root,
    async storeRaw(_trx, key, content) {
      busy.add(key.dataFileId);
      await mkdir(path.dirname(rawPath(key)), { recursive: true });
      // 'wx': a data file id is new; never write over another file's original.
      await writeFile(rawPath(key), content, { flag: 'wx' });
    },
    async discard(key) {
      try {
        await remove(rawPath(key));
      } finally {
        busy.delete(key.dataFileId);
      }
    },
    compressAfterCommit(_db, key, content) {
      busy.add(key.dataFileId);
      return underWay.track(
        compressFile(key, content).finally(() => busy.delete(key.dataFileId)),
        `the original of data file ${key.dataFileId}`,
      );
    },
    async read(_db, key) {
      try {
        return await gunzipAsync(await readFile(gzPath(key)));
      } catch (error) {
        if (!isMissing(error)) throw error;
      }
      try {
        return await readFile(rawPath(key));
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async stream(_db, key) {
      // Opened before it is answered: a missing file is null, not a stream that fails later.
      const opened = async (file: string) => {
        try {
          return (await open(file, 'r')).createReadStream();
        } catch (error) {
          if (isMissing(error)) return null;
          throw error;
        }
      };
      const gz = await opened(gzPath(key));
      if (gz) return gunzipped(gz);
      return opened(rawPath(key));
    },
    async removeDeleted(keys) {
      for (const key of keys) {
        if (busy.has(key.dataFileId)) deletedWhileBusy.add(key.dataFileId);
        await removeAll(key);
      }
    },
    async storedFileIds() {
      const ids = new Set<string>();
      for (const { name } of await listFiles(root)) {
        const id = name.split('.')[0]!;
        if (ORIGINAL_UUID.test(id) && !name.endsWith('.partial')) ids.add(id);
      }
      return [...ids];
    },
    sweep: (db) =>
      sweepOriginals(db, {
        busy,
        async list() {
          return (await listFiles(root)).map(({ facilityId, name }) => {
            const dataFileId = name.split('.')[0]!;
            return { facilityId, dataFileId, suffix: name.slice(dataFileId.length), modified: 0 };
          });
        },
        compressed: ['.gz'],
        partial: ['.gz.partial'],
        // One process owns the directory: a file without its data file that is not busy here is left over.
        leftOver: () => true,
        remove: (key, suffix) => remove(`${rawPath(key)}${suffix}`),
        removeAll,
        async readRaw(key) {
          try {
            return await readFile(rawPath(key));
          } catch (error) {
            if (isMissing(error)) return null;
            throw error;
          }
        },
        compress: compressFile,
      }),
    async close() {
      await underWay.settled();
      if (options.throwaway) await rm(root, { recursive: true, force: true });
    },
  };
}

async function listFiles(root: string): Promise<{ facilityId: string; name: string }[]> {
  const out: { facilityId: string; name: string }[] = [];
  let facilities: string[];
  try {
    facilities = await readdir(root);
  } catch (error) {
    if (isMissing(error)) return out;
    throw error;
  }
  for (const facilityId of facilities) {
    if (!ORIGINAL_UUID.test(facilityId)) continue;
    for (const name of await readdir(path.join(root, facilityId)).catch(() => [] as string[]))
      out.push({ facilityId, name });
  }
  return out;
}

/** The store of an embedded database: `<dataDir>/originals`, or a throwaway directory for an in-memory one. */
export function embeddedOriginalStore(dataDir: string): OriginalStore {
  if (dataDir === 'memory://')
    return directoryOriginalStore(fs.mkdtempSync(path.join(os.tmpdir(), 'portal-originals-')), {
      throwaway: true,
    });
  return directoryOriginalStore(path.join(dataDir, 'originals'));
}
