import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { compressPendingPart } from '../features/files/import';

export interface CompressOriginalsResult {
  parts: number;
  bytesBefore: number;
  bytesAfter: number;
}

/**
 * The compress-originals job: gzips the parts of originals that an upload stored raw ('pending', on PostgreSQL, so
 * the upload finishes sooner; docs/decisions/0050-storage-performance.md). A sweep over every pending part, one part
 * (at most 8 MB) in memory at a time, each rewritten in its own statement only while still pending: several
 * workers, or a job retried after a crash, never compress a part twice, and a part read meanwhile is always whole
 * (readOriginal takes 'pending' parts as they are).
 */
export async function compressPendingOriginals(db: Kysely<Database>, options: { batch?: number } = {}): Promise<CompressOriginalsResult> {
  const result: CompressOriginalsResult = { parts: 0, bytesBefore: 0, bytesAfter: 0 };
  const batch = options.batch ?? 32;
  for (;;) {
    const keys = await db
      .selectFrom('data_file_originals')
      .select(['facility_id', 'data_file_id', 'part'])
      .where('compression', '=', 'pending')
      .orderBy('data_file_id')
      .orderBy('part')
      .limit(batch)
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
      // Deleted with its file, or compressed by another worker meanwhile.
      if (!row) continue;
      const stored = await compressPendingPart(db, { facilityId: key.facility_id, dataFileId: key.data_file_id, part: key.part }, Buffer.from(row.content));
      if (stored === null) continue;
      result.parts++;
      result.bytesBefore += row.content.length;
      result.bytesAfter += stored;
    }
  }
}
