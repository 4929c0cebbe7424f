import { createHash } from 'node:crypto';
import { type PassThrough, Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import type { PackedOriginal } from './pdf';

/** An original logger file to pack: what the files table says of it. */
export interface OriginalToPack {
  dataFileId: string;
  facilityId: string;
  fileName: string;
  dataSource: string;
  uploadedOn: Date;
  uploadSha256: string;
  removedOn: Date | null;
}

export interface PackZipInput {
  originals: readonly OriginalToPack[];
  /** Reads one original back from the originals store (uncompressed); null when none is stored. */
  read(original: OriginalToPack): Promise<Buffer | null>;
  /** Called after each original is read and hashed (1-based), with its size. */
  onOriginal?(index: number, bytes: number): Promise<void> | void;
  /** The PDF's name in the zip. */
  pdfName: string;
  /** Makes the PDF once every original is hashed (it lists them). */
  pdf(originals: readonly PackedOriginal[]): Promise<Buffer>;
  /** Takes the zip's bytes in order; the zip waits for each call (back-pressure). */
  write(chunk: Buffer): Promise<void>;
  /** Deflate level of the originals (0 to 9; DEFAULT_ORIGINALS_LEVEL). */
  level?: number;
}

/**
 * Deflate level 1 for the originals: a year of the demo ship's logger CSV (78 MB) packs in about 6 s into 18.7 MB,
 * against 10 to 12 s into 13.6 MB at zlib's default 6 (bench/results/inspection-pack.md). The speed keeps a year's
 * pack well under its 20 s on a busy machine; the zip stays a seventh of the files.
 */
export const DEFAULT_ORIGINALS_LEVEL = 1;

export interface PackZipResult {
  bytes: number;
  pdfSha256: string;
  pdfBytes: number;
  originals: PackedOriginal[];
}

/** A name safe inside a zip and on any file system: no folders, no control characters, no leading dots. */
export function safeEntryName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // Control characters are what this removes.
  // eslint-disable-next-line no-control-regex
  const unsafe = new RegExp('[\\u0000-\\u001f\\u007f<>:"|?*]+', 'g');
  const cleaned = base.replace(unsafe, '_').replace(/^\.+/, '').trim();
  return cleaned.slice(-180) || 'file';
}

/** Paths of the originals under originals/, a repeated name numbered ("log.csv", "log (2).csv"). */
export function originalPaths(names: readonly string[]): string[] {
  const used = new Set<string>();
  return names.map((name) => {
    const safe = safeEntryName(name);
    const dot = safe.lastIndexOf('.');
    const [stem, ext] = dot > 0 ? [safe.slice(0, dot), safe.slice(dot)] : [safe, ''];
    let candidate = safe;
    for (let n = 2; used.has(candidate.toLowerCase()); n++) candidate = `${stem} (${n})${ext}`;
    used.add(candidate.toLowerCase());
    return `originals/${candidate}`;
  });
}

/**
 * A CSV field: quoted when it must be (RFC 4180); a text a spreadsheet would take for a formula (=, +, -, @ first:
 * an uploaded file may be named so) starts with an apostrophe, so it opens as the text it is.
 */
export const csvField = (value: string | number) => {
  const text = typeof value === 'number' ? String(value) : /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

/** manifest.csv: the PDF, then every original, each with its size and SHA-256 (UTF-8, RFC 4180, CRLF). */
export function manifestCsv(
  pdf: { name: string; bytes: number; sha256: string; createdOn: Date },
  originals: readonly PackedOriginal[],
): string {
  const rows: (string | number)[][] = [
    [
      'path',
      'kind',
      'file_name',
      'data_source',
      'uploaded_utc',
      'bytes',
      'sha256',
      'sha256_at_upload',
      'note',
    ],
    [
      pdf.name,
      'pdf',
      pdf.name,
      '',
      pdf.createdOn.toISOString(),
      pdf.bytes,
      pdf.sha256,
      '',
      'Made by the portal',
    ],
    ...originals.map((o) => [
      o.path,
      'original',
      o.fileName,
      o.dataSource,
      o.uploadedOn.toISOString(),
      o.bytes,
      o.sha256,
      o.uploadSha256,
      [
        o.sha256 === o.uploadSha256 ? '' : 'SHA-256 differs from the one recorded at upload',
        o.removedOn ? `taken off the file list ${o.removedOn.toISOString()} with its samples kept` : '',
      ]
        .filter(Boolean)
        .join('; '),
    ]),
  ];
  return `${rows.map((r) => r.map(csvField).join(',')).join('\r\n')}\r\n`;
}

/**
 * Writes the pack's zip as a stream (yazl: deflate in zlib's thread pool, ZIP64 where it is needed): the originals
 * under originals/ first, each read from the store when the zip gets to the one before it (so two originals at most
 * are in memory) and hashed on the way; then the PDF, made once the originals' hashes are known; then manifest.csv with every
 * SHA-256, the PDF's included. The bytes go to `write` as they come, and the zip waits for it.
 */
export async function writePackZip(input: PackZipInput): Promise<PackZipResult> {
  const zip = new ZipFile();
  const packed: PackedOriginal[] = [];
  const paths = originalPaths(input.originals.map((o) => o.fileName));
  const level = input.level ?? DEFAULT_ORIGINALS_LEVEL;
  let pdf: { name: string; bytes: number; sha256: string } | null = null;
  const createdOn = new Date();

  // The next original is read (and gunzipped, in the thread pool) while the zip deflates this one: two at most in
  // memory.
  const reads = new Map<number, Promise<Buffer | null>>();
  const readAt = (i: number) => {
    const original = input.originals[i];
    if (!original || reads.has(i)) return;
    const reading = input.read(original);
    reading.catch(() => undefined);
    reads.set(i, reading);
  };
  input.originals.forEach((original, i) => {
    const path = paths[i]!;
    zip.addReadStreamLazy(path, { mtime: original.uploadedOn, compressionLevel: level }, (callback) => {
      readAt(i);
      const reading = reads.get(i)!;
      reads.delete(i);
      readAt(i + 1);
      reading
        .then(async (content) => {
          if (!content) throw new Error(`The original of ${original.fileName} is not stored`);
          packed.push({
            path,
            fileName: original.fileName,
            dataSource: original.dataSource,
            uploadedOn: original.uploadedOn,
            bytes: content.length,
            sha256: createHash('sha256').update(content).digest('hex'),
            uploadSha256: original.uploadSha256,
            removedOn: original.removedOn,
          });
          await input.onOriginal?.(i + 1, content.length);
          callback(null, Readable.from([content]));
        })
        .catch((error: unknown) => callback(error as Error, undefined as unknown as Readable));
    });
  });

  // Added now, made when the zip gets to them: after every original above is written.
  zip.addReadStreamLazy(input.pdfName, { mtime: createdOn, compress: false }, (callback) => {
    input
      .pdf(packed)
      .then((content) => {
        pdf = {
          name: input.pdfName,
          bytes: content.length,
          sha256: createHash('sha256').update(content).digest('hex'),
        };
        callback(null, Readable.from([content]));
      })
      .catch((error: unknown) => callback(error as Error, undefined as unknown as Readable));
  });
  zip.addReadStreamLazy('manifest.csv', { mtime: createdOn }, (callback) => {
    if (!pdf) return callback(new Error('The PDF was not made'), undefined as unknown as Readable);
    callback(null, Readable.from([Buffer.from(manifestCsv({ ...pdf, createdOn }, packed), 'utf8')]));
  });
  zip.end();

  // yazl's output is a PassThrough; an error of an entry ends it, so the loop below throws instead of waiting.
  const output = zip.outputStream as unknown as PassThrough;
  zip.on('error', (error: Error) => output.destroy(error));
  let bytes = 0;
  for await (const chunk of output as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    await input.write(chunk);
  }
  if (!pdf) throw new Error('The PDF was not made');
  const made = pdf as { name: string; bytes: number; sha256: string };
  return { bytes, pdfSha256: made.sha256, pdfBytes: made.bytes, originals: packed };
}
