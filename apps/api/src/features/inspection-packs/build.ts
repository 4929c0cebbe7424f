import type { Kysely } from 'kysely';
import { inspectionPackFileName, packPeriodInstants } from '@portal/contracts/rules';
import type { Database } from '../../db/schema';
import type { Services } from '../../services';
import type { InspectionPackJob, JobContext, JobOutcome } from '../../jobs/contract';
import { assemblePackContent, type PackPeriod } from './content';
import { mailReadyPack } from './schedule';
import { renderPackPdf } from './pdf';
import { periodOf } from './queries';
import { deletePackParts, packPartWriter } from './store';
import { writePackZip, type OriginalToPack } from './zip';

/** Shares of the progress bar: reading what the PDF says, packing the originals, making the PDF. */
const CONTENT = 0.15;
const ORIGINALS = 0.8;

/** How often the stored progress moves at most (the list polls it). */
const PROGRESS_EVERY_MS = 500;

/** Options of a build (the benchmark's and tests'); production passes none. */
export interface BuildOptions {
  /** Deflate level of the originals in the zip (default DEFAULT_ORIGINALS_LEVEL, zip.ts). */
  level?: number;
  /** Seconds per stage, summed (the benchmark). */
  timings?: Record<string, number>;
}

/** The original logger files whose data reaches into [from, to): the files table, with their data source's name. */
export async function originalsOfPeriod(
  db: Kysely<Database>,
  facilityId: string,
  from: Date,
  to: Date,
): Promise<(OriginalToPack & { byteSize: number })[]> {
  const rows = await db
    .selectFrom('data_files as f')
    .innerJoin('facility_data_sources as d', 'd.id', 'f.data_source_id')
    .select([
      'f.id',
      'f.facility_id',
      'f.file_name',
      'f.content_sha256',
      'f.byte_size',
      'f.imported_on',
      'f.removed_on',
      'd.name as data_source',
    ])
    .where('f.facility_id', '=', facilityId)
    .where('f.time_stamp_max', '>=', from)
    .where('f.time_stamp_min', '<', to)
    .orderBy('f.time_stamp_min')
    .orderBy('f.imported_on')
    .orderBy('f.id')
    .execute();
  return rows.map((r) => ({
    dataFileId: r.id,
    facilityId: r.facility_id,
    fileName: r.file_name,
    dataSource: r.data_source,
    uploadedOn: new Date(r.imported_on),
    uploadSha256: r.content_sha256,
    removedOn: r.removed_on ? new Date(r.removed_on) : null,
    byteSize: Number(r.byte_size),
  }));
}

/**
 * The build job of one pack (docs/decisions/0106-inspection-packs.md): reads what the PDF says, packs the originals
 * of the period into the zip (stored part by part as it is made), makes the PDF once their hashes are known, and marks
 * the pack ready with the PDF's SHA-256 and the zip's size; a scheduled pack's e-mails are written and sent in the
 * same transaction. The progress is stored as it goes. A retry starts again from the beginning (what an earlier
 * attempt stored is removed first); the last attempt that fails marks the pack failed with the error.
 */
export async function buildInspectionPack(
  services: Services,
  job: InspectionPackJob,
  context: JobContext,
  options: BuildOptions = {},
): Promise<JobOutcome> {
  const { db } = services.database;
  const claimed = await db
    .updateTable('inspection_packs')
    .set({ state: 'building', progress: 0, stage: 'Starting', started_on: new Date(), error: null })
    .where('id', '=', job.packId)
    .where('state', 'in', ['queued', 'building'])
    .returningAll()
    .executeTakeFirst();
  if (!claimed) return { status: 'skipped', reason: 'The pack is built already, failed, or gone' };
  const timings = options.timings;
  const timed = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await work();
    } finally {
      if (timings) timings[name] = (timings[name] ?? 0) + (performance.now() - started) / 1000;
    }
  };

  let last = 0;
  let lastStage = '';
  const progress = async (share: number, stage: string) => {
    const now = Date.now();
    if (stage === lastStage && now - last < PROGRESS_EVERY_MS) return;
    last = now;
    lastStage = stage;
    await db
      .updateTable('inspection_packs')
      .set({ progress: Math.min(1, Math.max(0, share)), stage })
      .where('id', '=', job.packId)
      .where('state', '=', 'building')
      .execute();
  };

  try {
    await deletePackParts(db, job.packId);
    const days = periodOf(claimed);
    const period: PackPeriod = { ...days, ...fromTo(packPeriodInstants(days)) };
    const content = await timed('content', () =>
      assemblePackContent(db, claimed.facility_id, period, (share, stage) =>
        progress(share * CONTENT, stage),
      ),
    );
    const originals = await originalsOfPeriod(db, claimed.facility_id, period.fromInstant, period.toInstant);
    const totalBytes = originals.reduce((sum, o) => sum + o.byteSize, 0) || 1;
    let packedBytes = 0;
    const writer = packPartWriter(db, job.packId);
    const fileName = inspectionPackFileName(content.ship.name, days);
    const generatedOn = new Date();
    const zipStarted = performance.now();
    let pdfSeconds = 0;
    const zip = await writePackZip({
      originals,
      level: options.level,
      read: (original) => services.database.originals.read(db, original),
      onOriginal: async (index, bytes) => {
        packedBytes += bytes;
        await progress(
          CONTENT + ORIGINALS * Math.min(1, packedBytes / totalBytes),
          `Original logger files: ${index} of ${originals.length}`,
        );
      },
      pdfName: fileName.replace(/\.zip$/, '.pdf'),
      pdf: async (packed) => {
        await progress(CONTENT + ORIGINALS, 'PDF');
        const started = performance.now();
        const pdf = await renderPackPdf(content, packed, generatedOn);
        pdfSeconds += (performance.now() - started) / 1000;
        return pdf;
      },
      write: (chunk) => writer.write(chunk),
    });
    await writer.end();
    if (timings) {
      timings.pdf = (timings.pdf ?? 0) + pdfSeconds;
      timings.originals = (timings.originals ?? 0) + (performance.now() - zipStarted) / 1000 - pdfSeconds;
    }
    await timed('finish', () =>
      db.transaction().execute(async (trx) => {
        const ready = await trx
          .updateTable('inspection_packs')
          .set({
            state: 'ready',
            progress: 1,
            stage: null,
            finished_on: new Date(),
            pdf_sha256: zip.pdfSha256,
            pdf_bytes: zip.pdfBytes,
            zip_bytes: zip.bytes,
            originals: zip.originals.length,
            error: null,
          })
          .where('id', '=', job.packId)
          .where('state', '=', 'building')
          .returningAll()
          .executeTakeFirst();
        if (ready?.scheduled) await mailReadyPack(services, trx, ready, content.ship.name);
      }),
    );
    return { status: 'done' };
  } catch (error) {
    const message = (error as Error).message || String(error);
    const lastAttempt = context.retryCount >= context.retryLimit;
    await db
      .updateTable('inspection_packs')
      .set(
        lastAttempt
          ? { state: 'failed', stage: null, error: message, finished_on: new Date() }
          : { state: 'queued', stage: `Trying again after: ${message}`.slice(0, 500) },
      )
      .where('id', '=', job.packId)
      .where('state', '=', 'building')
      .execute();
    if (lastAttempt) await deletePackParts(db, job.packId).catch(() => undefined);
    return { status: 'failed', error: message, permanent: false };
  }
}

const fromTo = (instants: { from: Date; to: Date }) => ({
  fromInstant: instants.from,
  toInstant: instants.to,
});
