import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { crc32 } from 'node:zlib';
import yauzl from 'yauzl';

export interface UploadRules {
  /** Extensions of the data source's reader, e.g. ['.csv', '.txt']. */
  acceptedExtensions: string[];
  /** Size of the upload as sent (the file or the .zip). */
  maxUploadBytes: number;
  maxEntries: number;
  /** Sum of the unpacked sizes of the files taken from one archive. */
  maxTotalUncompressedBytes: number;
  /** Unpacked size over packed size of one entry. */
  maxCompressionRatio: number;
  /** Unpacked size of one file in an archive. */
  maxEntryBytes: number;
}

export type UploadInput = { fileName: string; content: Buffer } | { fileName: string; stream: Readable };

export interface UploadedFile {
  fileName: string;
  content: Buffer;
}

export interface UploadResult {
  files: UploadedFile[];
  /** One readable message per rejected file (or one for the whole upload). */
  errors: string[];
}

/** Raised to reject the whole upload with one message. */
class UploadRejected extends Error {}
/** Raised while unpacking one entry: that entry is rejected, the others are kept. */
class EntryRejected extends Error {}

export function extensionOf(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot).toLowerCase();
}

export function formatBytes(n: number): string {
  const units = ['bytes', 'kB', 'MB', 'GB', 'TB'];
  let i = 0;
  let v = n;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return i === 0 ? `${n} bytes` : `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[i]}`;
}

const listExtensions = (extensions: string[]) => extensions.join(', ');
const listWithOr = (items: string[]) =>
  items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;

/** Receives the accepted files of an upload one at a time; the next is unpacked only after the promise settles. */
export type UploadedFileHandler = (file: UploadedFile) => Promise<void>;

/**
 * Takes an upload apart and collects its files in memory: for small uploads and tests. Imports use
 * `eachUploadedFile`, which holds one file at a time.
 */
export async function readUpload(input: UploadInput, rules: UploadRules): Promise<UploadResult> {
  const files: UploadedFile[] = [];
  const { errors } = await eachUploadedFile(input, rules, async (file) => {
    files.push(file);
  });
  return { files, errors };
}

/**
 * Takes an upload apart: a data file with an accepted extension passes through; a .zip yields its data files,
 * unpacked one entry at a time with every limit enforced before and while inflating. Hostile archives
 * (zip slip, bombs, lying sizes, encryption, nesting) never reach the parser.
 *
 * Memory stays bounded by the largest file, not the archive: a streamed archive is spooled to a temporary file, every
 * accepted entry is first inflated once to check it (sizes, CRC, damage) without keeping its bytes, and only when the
 * whole archive is sound are the entries inflated again, one at a time, for `onFile`. So a damaged archive still
 * imports nothing, and `errors` (returned at the end) are known before the first file is handed on.
 */
export async function eachUploadedFile(
  input: UploadInput,
  rules: UploadRules,
  onFile: UploadedFileHandler,
): Promise<{ errors: string[] }> {
  const accepted = rules.acceptedExtensions.map((e) => (e.startsWith('.') ? e : `.${e}`).toLowerCase());
  const extension = extensionOf(input.fileName);
  try {
    if (extension !== '.zip' && !accepted.includes(extension)) {
      if ('stream' in input) input.stream.resume(); // let the request finish
      const shown =
        extension === ''
          ? `The file '${path.basename(input.fileName)}' has no file type`
          : `The file type ${extension} is not accepted`;
      return { errors: [`${shown}; upload ${listWithOr([...accepted, 'a .zip of them'])}.`] };
    }
    if (extension !== '.zip') {
      const content = 'stream' in input ? await collect(input.stream, rules.maxUploadBytes) : input.content;
      checkUploadSize(content.length, rules.maxUploadBytes);
      await onFile({ fileName: path.basename(input.fileName), content });
      return { errors: [] };
    }
    if ('content' in input) {
      checkUploadSize(input.content.length, rules.maxUploadBytes);
      return await readZip(
        await openZip(() => yauzl.fromBufferPromise(input.content, zipOptions), input.fileName),
        input.fileName,
        accepted,
        rules,
        onFile,
      );
    }
    // A streamed archive goes to a temporary file first: a zip's directory is at its end, and the entries are
    // then read from the file one by one instead of holding the whole archive in memory.
    const dir = await mkdtemp(path.join(os.tmpdir(), 'upload-'));
    try {
      const file = path.join(dir, 'upload.zip');
      await pipeline(
        input.stream,
        byteLimit(rules.maxUploadBytes, () => tooLarge(rules.maxUploadBytes)),
        createWriteStream(file),
      );
      return await readZip(
        await openZip(() => yauzl.openPromise(file, zipOptions), input.fileName),
        input.fileName,
        accepted,
        rules,
        onFile,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  } catch (err) {
    // Only our rejections become a message; the handler's own errors are the caller's.
    if (err instanceof UploadRejected) return { errors: [err.message] };
    throw err;
  }
}

// Names are decoded and checked by us (not by yauzl) so that one bad name rejects that entry, not the upload.
const zipOptions = {
  lazyEntries: true,
  decodeStrings: false,
  validateEntrySizes: true,
  autoClose: false,
  strictFileNames: false,
};

const tooLarge = (max: number) =>
  new UploadRejected(`The upload is larger than ${formatBytes(max)}, the most accepted at once.`);

function checkUploadSize(size: number, max: number): void {
  if (size > max) throw tooLarge(max);
}

function damaged(fileName: string): UploadRejected {
  return new UploadRejected(
    `The archive ${path.basename(fileName)} is damaged or incomplete and could not be read; no file was imported. Create the .zip again and upload it.`,
  );
}

const unreadableEntry = (name: string) =>
  new UploadRejected(
    `The archive is damaged: ${name} could not be unpacked; no file was imported. Create the .zip again and upload it.`,
  );

async function openZip(open: () => Promise<yauzl.ZipFile>, fileName: string): Promise<yauzl.ZipFile> {
  try {
    return await open();
  } catch {
    throw damaged(fileName);
  }
}

function byteLimit(max: number, error: () => Error): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen > max) callback(error());
      else callback(null, chunk);
    },
  });
}

async function collect(stream: Readable, max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) {
      stream.destroy();
      throw tooLarge(max);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

function entryName(entry: yauzl.Entry): string {
  return yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, false);
}

/** Why an entry is not taken, or null. Checked from the central directory, before anything is inflated. */
function entryProblem(
  entry: yauzl.Entry,
  name: string,
  accepted: string[],
  rules: UploadRules,
): string | null {
  const invalid = yauzl.validateFileName(name);
  if (invalid?.startsWith('absolute path')) return `${name}: absolute paths are not accepted in an archive.`;
  if (invalid) return `${name}: the path leads outside the archive (../), which is not accepted.`;
  if (entry.isEncrypted())
    return `${name}: the file is encrypted (password protected), which is not accepted.`;
  const extension = extensionOf(name);
  if (extension === '.zip') return `${name}: zip inside zip is not accepted; put all files into one .zip.`;
  if (!accepted.includes(extension)) return `${name}: the data source accepts ${listExtensions(accepted)}.`;
  if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8)
    return `${name}: it is compressed with a method that is not supported; use ordinary zip compression.`;
  if (entry.uncompressedSize > rules.maxEntryBytes) {
    return `${name}: it unpacks to ${formatBytes(entry.uncompressedSize)}; a file may have at most ${formatBytes(rules.maxEntryBytes)}.`;
  }
  if (
    entry.uncompressedSize > 0 &&
    entry.uncompressedSize > Math.max(entry.compressedSize, 1) * rules.maxCompressionRatio
  ) {
    const ratio =
      entry.compressedSize > 0 ? Math.round(entry.uncompressedSize / entry.compressedSize) : Infinity;
    return `${name}: it is compressed ${Number.isFinite(ratio) ? ratio.toLocaleString('en-US') : 'infinitely'}:1, more than the ${rules.maxCompressionRatio}:1 accepted; it looks like a zip bomb.`;
  }
  return null;
}

/** Entries that are not data: folders and the resource forks macOS adds to archives. */
function isSkipped(name: string): boolean {
  return name.endsWith('/') || name.startsWith('__MACOSX/') || path.posix.basename(name).startsWith('._');
}

async function readZip(
  zip: yauzl.ZipFile,
  fileName: string,
  accepted: string[],
  rules: UploadRules,
  onFile: UploadedFileHandler,
): Promise<{ errors: string[] }> {
  try {
    if (zip.entryCount > rules.maxEntries) {
      throw new UploadRejected(
        `The archive ${path.basename(fileName)} holds ${zip.entryCount.toLocaleString('en-US')} entries; at most ${rules.maxEntries.toLocaleString('en-US')} are accepted.`,
      );
    }
    const errors: string[] = [];
    const wanted: { entry: yauzl.Entry; name: string }[] = [];
    try {
      for await (const entry of zip.eachEntry()) {
        const name = entryName(entry);
        if (isSkipped(name)) continue;
        const problem = entryProblem(entry, name, accepted, rules);
        if (problem) errors.push(problem);
        else wanted.push({ entry, name });
      }
    } catch {
      throw damaged(fileName);
    }
    const declared = wanted.reduce((n, w) => n + w.entry.uncompressedSize, 0);
    const totalTooLarge = () =>
      new UploadRejected(
        `The archive ${path.basename(fileName)} unpacks to more than ${formatBytes(rules.maxTotalUncompressedBytes)}, the most accepted at once; split it into smaller archives.`,
      );
    if (declared > rules.maxTotalUncompressedBytes) throw totalTooLarge();

    // First pass: inflate and check every entry, keeping no bytes.
    const sound: typeof wanted = [];
    let unpacked = 0;
    for (const w of wanted) {
      try {
        let crc = 0;
        await inflateEntry(zip, w.entry, w.name, rules, (chunk) => {
          unpacked += chunk.length;
          if (unpacked > rules.maxTotalUncompressedBytes) throw totalTooLarge();
          crc = crc32(chunk, crc);
        });
        if (crc !== w.entry.crc32) throw unreadableEntry(w.name);
        sound.push(w);
      } catch (err) {
        if (err instanceof EntryRejected) errors.push(err.message);
        else throw err;
      }
    }
    if (sound.length === 0 && errors.length === 0)
      errors.push(`The archive ${path.basename(fileName)} holds no files.`);

    // Second pass: one file in memory at a time.
    for (const { entry, name } of sound) {
      const chunks: Buffer[] = [];
      let size = 0;
      await inflateEntry(zip, entry, name, rules, (chunk) => {
        chunks.push(chunk);
        size += chunk.length;
      });
      const content = Buffer.concat(chunks, size);
      chunks.length = 0;
      // The archive (a temporary file or the caller's buffer) did not change between the passes; checked anyway.
      if (crc32(content) !== entry.crc32) throw unreadableEntry(name);
      await onFile({ fileName: name, content });
    }
    return { errors };
  } finally {
    zip.close();
  }
}

/** Inflates one entry, counting bytes as they come: declared sizes can lie, so every limit is also enforced here. */
async function inflateEntry(
  zip: yauzl.ZipFile,
  entry: yauzl.Entry,
  name: string,
  rules: UploadRules,
  onChunk: (chunk: Buffer) => void,
): Promise<void> {
  let stream: Readable;
  try {
    stream = await zip.openReadStreamPromise(entry);
  } catch {
    throw unreadableEntry(name);
  }
  const limit = Math.min(rules.maxEntryBytes, Math.max(entry.compressedSize, 1) * rules.maxCompressionRatio);
  let size = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit)
        throw new EntryRejected(
          `${name}: it unpacks to more than its limit (${formatBytes(limit)}); it looks like a zip bomb.`,
        );
      onChunk(chunk);
    }
  } catch (err) {
    stream.destroy();
    if (err instanceof EntryRejected || err instanceof UploadRejected) throw err;
    const message = err instanceof Error ? err.message : '';
    // yauzl compares the inflated bytes with the declared size.
    if (/too many bytes|not enough bytes/.test(message)) {
      throw new EntryRejected(
        `${name}: its content does not match the size recorded in the archive; it looks damaged or crafted.`,
      );
    }
    throw unreadableEntry(name);
  }
}
