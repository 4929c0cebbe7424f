import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { unzipSync } from 'fflate';
import {
  csvField,
  manifestCsv,
  originalPaths,
  safeEntryName,
  writePackZip,
  type OriginalToPack,
} from './zip';

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const original = (name: string, i: number): OriginalToPack => ({
  dataFileId: `file-${i}`,
  facilityId: 'ship',
  fileName: name,
  dataSource: 'Logger',
  uploadedOn: new Date(Date.UTC(2025, 2, 1 + i)),
  uploadSha256: sha(Buffer.from(`content ${i}\n`.repeat(1000))),
  removedOn: null,
});

describe('the names in a pack', () => {
  it('keep no folder, control character or leading dot, and number a repeated name', () => {
    expect(safeEntryName('../../etc/passwd')).toBe('passwd');
    expect(safeEntryName('C:\\logs\\day\u0007.csv')).toBe('day_.csv');
    expect(safeEntryName('...hidden')).toBe('hidden');
    expect(safeEntryName('')).toBe('file');
    expect(originalPaths(['log.csv', 'LOG.csv', 'log.csv', 'a/b.txt'])).toEqual([
      'originals/log.csv',
      'originals/LOG (2).csv',
      'originals/log (3).csv',
      'originals/b.txt',
    ]);
  });

  it('open in a spreadsheet as text, never as a formula', () => {
    expect(csvField('=HYPERLINK("http://x")')).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(csvField('+1')).toBe("'+1");
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField(-3)).toBe('-3');
  });
});

describe('the zip of a pack', () => {
  it('holds the originals read one after the other, the PDF made after them, and the manifest of their hashes', async () => {
    const originals = [
      original('day 1.csv', 0),
      original('day 2.csv', 1),
      { ...original('day 1.csv', 2), uploadSha256: '0'.repeat(64) },
    ];
    const contents = originals.map((_, i) => Buffer.from(`content ${i}\n`.repeat(1000)));
    let reading = 0;
    let most = 0;
    const chunks: Buffer[] = [];
    const result = await writePackZip({
      originals,
      read: async (o) => {
        reading++;
        most = Math.max(most, reading);
        await new Promise((r) => setTimeout(r, 5));
        reading--;
        return contents[Number(o.dataFileId.slice(5))]!;
      },
      pdfName: 'pack.pdf',
      pdf: async (packed) => {
        // Every original is hashed before the PDF is made.
        expect(packed.map((p) => p.sha256)).toEqual(contents.map(sha));
        return Buffer.from('%PDF-1.7 made after the originals');
      },
      write: async (chunk) => {
        chunks.push(chunk);
      },
    });
    const zip = Buffer.concat(chunks);
    expect(result.bytes).toBe(zip.length);
    expect(most).toBeLessThanOrEqual(2);
    const files = unzipSync(new Uint8Array(zip));
    expect(Object.keys(files)).toEqual([
      'originals/day 1.csv',
      'originals/day 2.csv',
      'originals/day 1 (2).csv',
      'pack.pdf',
      'manifest.csv',
    ]);
    expect(Buffer.from(files['originals/day 1 (2).csv']!).equals(contents[2]!)).toBe(true);
    const manifest = Buffer.from(files['manifest.csv']!).toString('utf8').trim().split('\r\n');
    expect(manifest[0]).toBe(
      'path,kind,file_name,data_source,uploaded_utc,bytes,sha256,sha256_at_upload,note',
    );
    expect(manifest[1]).toContain(`pack.pdf,pdf,pack.pdf,,`);
    expect(manifest[1]).toContain(sha(files['pack.pdf']!));
    expect(result.pdfSha256).toBe(sha(files['pack.pdf']!));
    // The third original differs from the hash recorded at its upload: the manifest says so.
    expect(manifest[4]).toContain('SHA-256 differs from the one recorded at upload');
    expect(manifest[2]).not.toContain('differs');
  });

  it('fails, rather than waits, when an original cannot be read', async () => {
    await expect(
      writePackZip({
        originals: [original('a.csv', 0)],
        read: async () => null,
        pdfName: 'pack.pdf',
        pdf: async () => Buffer.from('%PDF'),
        write: async () => undefined,
      }),
    ).rejects.toThrow('The original of a.csv is not stored');
  });

  it('writes the manifest of a pack without originals', () => {
    const text = manifestCsv({ name: 'p.pdf', bytes: 10, sha256: 'ab', createdOn: new Date(0) }, []);
    expect(text).toBe(
      'path,kind,file_name,data_source,uploaded_utc,bytes,sha256,sha256_at_upload,note\r\np.pdf,pdf,p.pdf,,1970-01-01T00:00:00.000Z,10,ab,,Made by the portal\r\n',
    );
  });
});
