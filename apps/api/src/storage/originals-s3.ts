import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import type { Kysely } from 'kysely';
import type { ObjectStoreSettings } from '../config';
import type { Database } from '../db/schema';
import { AppError } from '../errors';
import {
  compressions,
  gunzipped,
  gzipWhole,
  ORIGINAL_UUID,
  type OriginalKey,
  type OriginalStore,
  sweepOriginals,
} from './originals';

/**
 * The originals in an S3-compatible bucket (ORIGINALS_URL), shared by every API node and worker of a scaled-out
 * deployment (docs/decisions/0127-originals-in-object-storage-and-batch-import.md). Laid out like the directory store,
 * so that a listing alone tells the state of each original and the sweep needs no request per object:
 * `<prefix><facility id>/<data file id>` raw (stored by the import, not compressed yet), `<data file id>.gz`
 * compressed (a gzip member per 8 MB piece), `<data file id>.none` kept as received (gzip would not shrink it).
 * An object is written whole or not at all (a PUT), so a reader never sees half of one.
 *
 * Several processes share the bucket: none knows what another is importing. An object whose data file does not exist
 * is removed by the sweep only once it is older than `orphanAgeMs` (an import in another process commits well within
 * it); until then it may be an import under way.
 */
export function s3OriginalStore(
  settings: ObjectStoreSettings,
  options: { orphanAgeMs?: number; client?: S3Client } = {},
): OriginalStore {
  const client =
    options.client ??
    new S3Client({
      region: settings.region,
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      forcePathStyle: settings.forcePathStyle,
      // Three attempts with the SDK's backoff; a server that does not answer fails the attempt (not the process).
      maxAttempts: 3,
      requestHandler: { connectionTimeout: 5_000, requestTimeout: 120_000 },
    });
  const orphanAgeMs = options.orphanAgeMs ?? 60 * 60 * 1000;
  const { bucket, prefix } = settings;
  const where = `bucket ${bucket}${settings.endpoint ? ` at ${settings.endpoint}` : ''}`;
  const busy = new Set<string>();
  const underWay = compressions();
  const rawKey = (key: OriginalKey) => `${prefix}${key.facilityId}/${key.dataFileId}`;
  const gzKey = (key: OriginalKey) => `${rawKey(key)}.gz`;
  const noneKey = (key: OriginalKey) => `${rawKey(key)}.none`;

  /**
   * A request the bucket did not answer, or answered with an error: the caller is told plainly (503), the log gets
   * the bucket, its server and what went wrong (the error's cause).
   */
  const unavailable = (doing: string, error: unknown) => {
    const refused = new AppError(
      'UNAVAILABLE',
      `The store of uploaded files could not be reached, so the file was not imported. Nothing of it was kept: send it again later.`,
    );
    refused.cause = new Error(`The store of originals (${where}) could not ${doing}: ${describe(error)}`, {
      cause: error,
    });
    return refused;
  };

  const put = (Key: string, Body: Buffer) =>
    client.send(new PutObjectCommand({ Bucket: bucket, Key, Body, ContentLength: Body.length }));
  const remove = (Key: string) => client.send(new DeleteObjectCommand({ Bucket: bucket, Key }));
  const removeAll = async (key: OriginalKey) => {
    // DELETE of a key that is not there succeeds: no need to know which of the three exist.
    await Promise.all([remove(rawKey(key)), remove(gzKey(key)), remove(noneKey(key))]);
  };

  /** The object's body as a stream, or null when there is no such key. */
  async function body(Key: string): Promise<Readable | null> {
    try {
      const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key }));
      return answer.Body as Readable;
    } catch (error) {
      if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') return null;
      throw error;
    }
  }

  /** Compresses the raw object's bytes into `.gz` (or `.none`), then removes the raw one. Answers the bytes stored. */
  async function compressObject(key: OriginalKey, db: Kysely<Database>, content: Buffer): Promise<number> {
    const gz = await gzipWhole(content);
    const kept = gz.length < content.length;
    await put(kept ? gzKey(key) : noneKey(key), kept ? gz : content);
    await remove(rawKey(key));
    // Its data file was deleted meanwhile (here or on another node): what this wrote goes too.
    const file = await db
      .selectFrom('data_files')
      .select('id')
      .where('id', '=', key.dataFileId)
      .executeTakeFirst();
    if (!file) await removeAll(key);
    return kept ? gz.length : content.length;
  }

  /** Every object under the prefix: data file id, facility, suffix ('', '.gz', '.none') and when it was written. */
  async function listAll(): Promise<
    { facilityId: string; dataFileId: string; suffix: string; modified: number }[]
  > {
    const out: { facilityId: string; dataFileId: string; suffix: string; modified: number }[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(
        new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) {
        const [facilityId = '', name = ''] = (object.Key ?? '').slice(prefix.length).split('/');
        const dataFileId = name.split('.')[0]!;
        if (!ORIGINAL_UUID.test(facilityId) || !ORIGINAL_UUID.test(dataFileId)) continue;
        out.push({
          facilityId,
          dataFileId,
          suffix: name.slice(dataFileId.length),
          modified: object.LastModified?.getTime() ?? 0,
        });
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return out;
  }

  const store: OriginalStore = {
    kind: 'bucket',
    location: `s3://${bucket}/${prefix}`,
    async storeRaw(_trx, key, content) {
      busy.add(key.dataFileId);
      try {
        await put(rawKey(key), content);
      } catch (error) {
        // The import's transaction rolls back with this error: the upload is refused, nothing of it is kept.
        throw unavailable(`store the original`, error);
      }
    },
    async discard(key) {
      try {
        await remove(rawKey(key));
      } catch (error) {
        // Left for the sweep, which removes objects without a data file once they are old enough.
        console.warn(`the original of data file ${key.dataFileId} is left to the sweep: ${describe(error)}`);
      } finally {
        busy.delete(key.dataFileId);
      }
    },
    compressAfterCommit(db, key, content) {
      busy.add(key.dataFileId);
      return underWay.track(
        compressObject(key, db, content).finally(() => busy.delete(key.dataFileId)),
        `the original of data file ${key.dataFileId}`,
      );
    },
    async read(db, key) {
      const stream = await store.stream(db, key);
      if (!stream) return null;
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    },
    async stream(_db, key) {
      try {
        const gz = await body(gzKey(key));
        if (gz) return gunzipped(gz);
        return (await body(noneKey(key))) ?? (await body(rawKey(key)));
      } catch (error) {
        const failed = unavailable('be read', error);
        failed.message = 'The store of uploaded files could not be reached. Try again later.';
        throw failed;
      }
    },
    async removeDeleted(keys) {
      for (const key of keys) {
        try {
          await removeAll(key);
        } catch (error) {
          // The deletion is committed; what stays in the bucket is removed by the sweep.
          console.warn(
            `the original of data file ${key.dataFileId} is left to the sweep: ${describe(error)}`,
          );
        }
      }
    },
    async storedFileIds() {
      return [...new Set((await listAll()).map((o) => o.dataFileId))];
    },
    sweep: (db) =>
      sweepOriginals(db, {
        busy,
        list: listAll,
        compressed: ['.gz', '.none'],
        partial: [],
        // An import under way in another process has no committed row yet: only what is old enough is left over.
        leftOver: (newest) => Date.now() - newest >= orphanAgeMs,
        async remove(key, suffix) {
          await remove(`${rawKey(key)}${suffix}`);
        },
        removeAll,
        async readRaw(key) {
          const raw = await body(rawKey(key));
          if (!raw) return null;
          const chunks: Buffer[] = [];
          for await (const chunk of raw) chunks.push(chunk as Buffer);
          return Buffer.concat(chunks);
        },
        compress: (key, content) => compressObject(key, db, content),
      }),
    async close() {
      await underWay.settled();
      if (!options.client) client.destroy();
    },
  };
  return store;
}

/** What went wrong with a request to the bucket, in one line. */
function describe(error: unknown): string {
  if (error instanceof S3ServiceException)
    return `${error.name} (HTTP ${error.$metadata.httpStatusCode ?? '?'}): ${error.message}`;
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  return code && !message.includes(code) ? `${code} ${message}` : message || (error as Error).name;
}
