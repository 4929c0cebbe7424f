import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';

/**
 * A pack's zip in the database (`inspection_pack_parts`, migration 0023): written part by part as the zip is made,
 * read back part by part for the download, so neither holds more than a part of it in memory.
 */
export const PACK_PART_BYTES = 8 * 1024 * 1024;

/** Collects the zip's bytes into parts of PACK_PART_BYTES and stores each as it fills. */
export function packPartWriter(db: Kysely<Database>, packId: string) {
  let part = 0;
  let chunks: Buffer[] = [];
  let size = 0;
  const flush = async () => {
    if (size === 0) return;
    const content = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
    chunks = [];
    size = 0;
    await db.insertInto('inspection_pack_parts').values({ pack_id: packId, part: part++, content }).execute();
  };
  return {
    async write(chunk: Buffer) {
      let rest = chunk;
      while (rest.length > 0) {
        const take = Math.min(rest.length, PACK_PART_BYTES - size);
        chunks.push(rest.subarray(0, take));
        size += take;
        rest = rest.subarray(take);
        if (size === PACK_PART_BYTES) await flush();
      }
    },
    /** Stores what is left; answers the parts written. */
    async end(): Promise<number> {
      await flush();
      return part;
    },
  };
}

/** Removes what an earlier attempt of the build wrote. */
export async function deletePackParts(db: Kysely<Database>, packId: string): Promise<void> {
  await db.deleteFrom('inspection_pack_parts').where('pack_id', '=', packId).execute();
}

/** The zip's bytes, part after part (one part read at a time). */
export async function* readPackParts(db: Kysely<Database>, packId: string): AsyncGenerator<Buffer> {
  const parts = await db
    .selectFrom('inspection_pack_parts')
    .select('part')
    .where('pack_id', '=', packId)
    .orderBy('part')
    .execute();
  for (const { part } of parts) {
    const row = await db
      .selectFrom('inspection_pack_parts')
      .select('content')
      .where('pack_id', '=', packId)
      .where('part', '=', part)
      .executeTakeFirst();
    if (!row) throw new Error(`Part ${part} of the inspection pack ${packId} is missing`);
    yield Buffer.from(row.content);
  }
}
