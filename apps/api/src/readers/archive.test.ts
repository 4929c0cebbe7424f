import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import { Deflate, deflateSync, strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { readUpload, type UploadRules } from './index';
import { eachUploadedFile, type UploadedFile } from './archive';

const rules: UploadRules = {
  acceptedExtensions: ['.csv', '.txt'],
  maxUploadBytes: 5_000_000,
  maxEntries: 20,
  maxTotalUncompressedBytes: 10_000_000,
  maxCompressionRatio: 100,
  maxEntryBytes: 5_000_000,
};

const CSV = 'Timestamp,A\n2026-03-01 10:00:00,1\n';

interface CraftedEntry {
  name: string;
  /** Raw deflate data (method 8) or stored bytes (method 0). */
  data: Uint8Array;
  method?: 0 | 8;
  crc: number;
  uncompressedSize: number;
  flags?: number;
}

/**
 * Writes a zip by hand so that it can lie: names, sizes and flags are written as given, unchecked.
 * Local headers and the central directory say the same thing, as a crafted archive would.
 */
function craftZip(entries: CraftedEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE((e.flags ?? 0) | 0x800, 6);
    local.writeUInt16LE(e.method ?? 8, 8);
    local.writeUInt32LE(e.crc >>> 0, 14);
    local.writeUInt32LE(e.data.length, 18);
    local.writeUInt32LE(e.uncompressedSize, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE((e.flags ?? 0) | 0x800, 8);
    central.writeUInt16LE(e.method ?? 8, 10);
    central.writeUInt32LE(e.crc >>> 0, 16);
    central.writeUInt32LE(e.data.length, 20);
    central.writeUInt32LE(e.uncompressedSize, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, Buffer.from(e.data));
    centrals.push(central, name);
    offset += 30 + name.length + e.data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const entry = (name: string, text: string, extra: Partial<CraftedEntry> = {}): CraftedEntry => {
  const bytes = strToU8(text);
  return { name, data: deflateSync(bytes), crc: crc32(bytes), uncompressedSize: bytes.length, ...extra };
};

/** 200 MB of zeros deflated in 1 MB steps, never held whole in memory. */
function zerosBomb(megabytes: number): { data: Uint8Array; crc: number; size: number } {
  const parts: Uint8Array[] = [];
  const deflate = new Deflate({ level: 6 }, (chunk) => parts.push(chunk));
  const zeros = new Uint8Array(1 << 20);
  let crc = 0;
  for (let i = 0; i < megabytes; i++) {
    crc = crc32(zeros, crc);
    deflate.push(zeros, i === megabytes - 1);
  }
  return { data: Buffer.concat(parts), crc, size: megabytes << 20 };
}

const zip = (files: Record<string, string | Uint8Array>) =>
  Buffer.from(
    zipSync(
      Object.fromEntries(Object.entries(files).map(([k, v]) => [k, typeof v === 'string' ? strToU8(v) : v])),
    ),
  );

describe('readUpload: single files', () => {
  it('passes a file with an accepted extension through, from a buffer or a stream', async () => {
    expect(await readUpload({ fileName: 'log.CSV', content: Buffer.from(CSV) }, rules)).toEqual({
      files: [{ fileName: 'log.CSV', content: Buffer.from(CSV) }],
      errors: [],
    });
    const streamed = await readUpload(
      { fileName: 'log.txt', stream: Readable.from([Buffer.from(CSV)]) },
      rules,
    );
    expect(streamed.files[0]!.content.toString()).toBe(CSV);
  });

  it('rejects a file type the data source does not accept', async () => {
    expect(await readUpload({ fileName: 'setup.exe', content: Buffer.from('MZ') }, rules)).toEqual({
      files: [],
      errors: ['The file type .exe is not accepted; upload .csv, .txt or a .zip of them.'],
    });
    expect((await readUpload({ fileName: 'README', content: Buffer.from('x') }, rules)).errors).toEqual([
      "The file 'README' has no file type; upload .csv, .txt or a .zip of them.",
    ]);
  });

  it('rejects an upload over the size limit, also when streamed', async () => {
    const big = Buffer.alloc(rules.maxUploadBytes + 1, 'a');
    const message = 'The upload is larger than 5.0 MB, the most accepted at once.';
    expect((await readUpload({ fileName: 'log.csv', content: big }, rules)).errors).toEqual([message]);
    const chunks = Array.from({ length: 6 }, () => Buffer.alloc(1_000_000, 'a'));
    expect(await readUpload({ fileName: 'log.csv', stream: Readable.from(chunks) }, rules)).toEqual({
      files: [],
      errors: [message],
    });
    expect((await readUpload({ fileName: 'logs.zip', stream: Readable.from(chunks) }, rules)).errors).toEqual(
      [message],
    );
  });
});

describe('readUpload: zip archives', () => {
  it('yields the data files of a zip, skips folders and names each rejected entry', async () => {
    const archive = zip({
      'day1/a.csv': CSV,
      'day1/b.TXT': CSV,
      'day1/': new Uint8Array(0),
      'report.pdf': '%PDF',
      '__MACOSX/day1/._a.csv': 'x',
    });
    for (const input of [
      { fileName: 'logs.zip', content: archive },
      { fileName: 'logs.ZIP', stream: Readable.from([archive.subarray(0, 100), archive.subarray(100)]) },
    ]) {
      const result = await readUpload(input, rules);
      expect(result.files.map((f) => [f.fileName, f.content.toString()])).toEqual([
        ['day1/a.csv', CSV],
        ['day1/b.TXT', CSV],
      ]);
      expect(result.errors).toEqual(['report.pdf: the data source accepts .csv, .txt.']);
    }
  });

  it('rejects entries that would escape the folder (zip slip) and keeps the others', async () => {
    const archive = craftZip([
      entry('../../etc/cron.d/evil.csv', CSV),
      entry('/etc/passwd.csv', CSV),
      entry('C:/Windows/evil.csv', CSV),
      entry('..\\evil.txt', CSV),
      entry('ok.csv', CSV),
    ]);
    const result = await readUpload({ fileName: 'logs.zip', content: archive }, rules);
    expect(result.files.map((f) => f.fileName)).toEqual(['ok.csv']);
    expect(result.errors).toEqual([
      '../../etc/cron.d/evil.csv: the path leads outside the archive (../), which is not accepted.',
      '/etc/passwd.csv: absolute paths are not accepted in an archive.',
      'C:/Windows/evil.csv: absolute paths are not accepted in an archive.',
      '../evil.txt: the path leads outside the archive (../), which is not accepted.',
    ]);
  });

  it('rejects a zip bomb by its declared sizes before inflating it', async () => {
    const bomb = zerosBomb(200);
    expect(bomb.data.length).toBeLessThan(1_000_000);
    const archive = craftZip([
      { name: 'zeros.csv', data: bomb.data, crc: bomb.crc, uncompressedSize: bomb.size },
      entry('ok.csv', CSV),
    ]);
    const bigLimits = { ...rules, maxEntryBytes: 500_000_000, maxTotalUncompressedBytes: 500_000_000 };
    const result = await readUpload({ fileName: 'bomb.zip', content: archive }, bigLimits);
    expect(result.files.map((f) => f.fileName)).toEqual(['ok.csv']);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatch(
      /^zeros\.csv: it is compressed [\d,]+:1, more than the 100:1 accepted; it looks like a zip bomb\.$/,
    );
    // Nothing of the 200 MB was inflated: the same entry whose data is no deflate stream at all (inflating it would
    // fail as damaged) gets the same answer, refused by its declared sizes alone.
    const undeflatable = craftZip([
      {
        name: 'zeros.csv',
        data: Buffer.alloc(bomb.data.length, 0xff),
        crc: bomb.crc,
        uncompressedSize: bomb.size,
      },
      entry('ok.csv', CSV),
    ]);
    expect(await readUpload({ fileName: 'bomb.zip', content: undeflatable }, bigLimits)).toEqual(result);

    const tooBig = await readUpload(
      { fileName: 'bomb.zip', content: archive },
      { ...rules, maxCompressionRatio: 10_000 },
    );
    expect(tooBig.errors).toEqual(['zeros.csv: it unpacks to 210 MB; a file may have at most 5.0 MB.']);
  });

  it('stops inflating an entry whose headers lie about its size', async () => {
    const bomb = zerosBomb(200);
    // Declared: 1 kB unpacked from ~200 kB packed, a harmless looking ratio. Actual: 200 MB.
    const archive = craftZip([
      { name: 'liar.csv', data: bomb.data, crc: bomb.crc, uncompressedSize: 1000 },
      entry('ok.csv', CSV),
    ]);
    const before = process.memoryUsage().arrayBuffers;
    const result = await readUpload({ fileName: 'liar.zip', content: archive }, rules);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(50_000_000);
    expect(result.files.map((f) => f.fileName)).toEqual(['ok.csv']);
    expect(result.errors).toEqual([
      'liar.csv: its content does not match the size recorded in the archive; it looks damaged or crafted.',
    ]);
  });

  it('rejects an archive that declares more unpacked data in total than allowed, before inflating', async () => {
    const text = 'x'.repeat(4_000_000);
    const archive = craftZip([entry('a.csv', text), entry('b.csv', text), entry('c.csv', text)]);
    const result = await readUpload(
      { fileName: 'many.zip', content: archive },
      { ...rules, maxCompressionRatio: 100_000 },
    );
    expect(result).toEqual({
      files: [],
      errors: [
        'The archive many.zip unpacks to more than 10 MB, the most accepted at once; split it into smaller archives.',
      ],
    });
  });

  it('rejects an archive with more entries than allowed', async () => {
    const archive = zip(Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`f${i}.csv`, CSV])));
    expect(await readUpload({ fileName: 'many.zip', content: archive }, rules)).toEqual({
      files: [],
      errors: ['The archive many.zip holds 21 entries; at most 20 are accepted.'],
    });
  });

  it('rejects encrypted entries', async () => {
    const archive = craftZip([entry('secret.csv', CSV, { flags: 0x1 }), entry('open.csv', CSV)]);
    const result = await readUpload({ fileName: 'logs.zip', content: archive }, rules);
    expect(result.files.map((f) => f.fileName)).toEqual(['open.csv']);
    expect(result.errors).toEqual([
      'secret.csv: the file is encrypted (password protected), which is not accepted.',
    ]);
  });

  it('rejects a zip inside the zip', async () => {
    const inner = zip({ 'a.csv': CSV });
    const result = await readUpload(
      { fileName: 'outer.zip', content: zip({ 'inner.zip': inner, 'b.csv': CSV }) },
      rules,
    );
    expect(result.files.map((f) => f.fileName)).toEqual(['b.csv']);
    expect(result.errors).toEqual([
      'inner.zip: zip inside zip is not accepted; put all files into one .zip.',
    ]);
  });

  it('rejects a truncated or corrupt archive as a whole, with one message and no files', async () => {
    const good = zip({ 'a.csv': CSV.repeat(50), 'b.csv': CSV });
    const damaged =
      'The archive logs.zip is damaged or incomplete and could not be read; no file was imported. Create the .zip again and upload it.';
    expect(
      await readUpload({ fileName: 'logs.zip', content: good.subarray(0, good.length - 30) }, rules),
    ).toEqual({ files: [], errors: [damaged] });
    expect(
      await readUpload({ fileName: 'logs.zip', content: Buffer.from('not a zip at all') }, rules),
    ).toEqual({ files: [], errors: [damaged] });

    const corrupt = craftZip([
      entry('b.csv', CSV),
      { ...entry('a.csv', CSV.repeat(50)), data: Buffer.from('this is not deflate data, really not') },
    ]);
    expect(await readUpload({ fileName: 'logs.zip', content: corrupt }, rules)).toEqual({
      files: [],
      errors: [
        'The archive is damaged: a.csv could not be unpacked; no file was imported. Create the .zip again and upload it.',
      ],
    });
    const wrongCrc = craftZip([entry('a.csv', CSV, { crc: 12345 })]);
    expect((await readUpload({ fileName: 'logs.zip', content: wrongCrc }, rules)).files).toEqual([]);
  });

  it('says so when an archive holds no files', async () => {
    expect(
      await readUpload({ fileName: 'empty.zip', content: zip({ 'folder/': new Uint8Array(0) }) }, rules),
    ).toEqual({ files: [], errors: ['The archive empty.zip holds no files.'] });
  });
});

describe('eachUploadedFile: one file in memory at a time', () => {
  it('hands the files of a streamed zip on one by one, the next only after the previous is done', async () => {
    const archive = zip({
      'a.csv': CSV,
      'b.csv': CSV.repeat(2),
      'c.txt': CSV.repeat(3),
      'notes.pdf': '%PDF',
    });
    const seen: string[] = [];
    let busy = 0;
    let mostBusy = 0;
    const result = await eachUploadedFile(
      { fileName: 'logs.zip', stream: Readable.from([archive]) },
      rules,
      async (file: UploadedFile) => {
        busy++;
        mostBusy = Math.max(mostBusy, busy);
        await new Promise((resolve) => setTimeout(resolve, 5));
        seen.push(`${file.fileName} ${file.content.length}`);
        busy--;
      },
    );
    expect(mostBusy).toBe(1);
    expect(seen).toEqual([`a.csv ${CSV.length}`, `b.csv ${CSV.length * 2}`, `c.txt ${CSV.length * 3}`]);
    expect(result.errors).toEqual(['notes.pdf: the data source accepts .csv, .txt.']);
  });

  it('hands on nothing from an archive that turns out damaged after its first files', async () => {
    const corrupt = craftZip([
      entry('a.csv', CSV),
      entry('b.csv', CSV),
      { ...entry('c.csv', CSV.repeat(50)), data: Buffer.from('this is not deflate data, really not') },
    ]);
    const handed: string[] = [];
    const result = await eachUploadedFile({ fileName: 'logs.zip', content: corrupt }, rules, async (file) => {
      handed.push(file.fileName);
    });
    expect(handed).toEqual([]);
    expect(result.errors).toEqual([
      'The archive is damaged: c.csv could not be unpacked; no file was imported. Create the .zip again and upload it.',
    ]);
  });

  it("passes the handler's own failure to the caller", async () => {
    const failing = eachUploadedFile(
      { fileName: 'logs.zip', content: zip({ 'a.csv': CSV }) },
      rules,
      async () => {
        throw new Error('database is gone');
      },
    );
    await expect(failing).rejects.toThrow('database is gone');
  });
});
