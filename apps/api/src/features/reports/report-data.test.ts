import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { acceptsGzip, AnswerBytes } from './report-data';

describe('acceptsGzip', () => {
  it('accepts what a browser sends, and refuses gzip with quality 0 or not named', () => {
    expect(acceptsGzip('gzip, deflate, br, zstd')).toBe(true);
    expect(acceptsGzip('br;q=1.0, gzip;q=0.8')).toBe(true);
    expect(acceptsGzip('*')).toBe(true);
    expect(acceptsGzip('GZIP')).toBe(true);
    expect(acceptsGzip('gzip;q=0')).toBe(false);
    expect(acceptsGzip('*;q=0')).toBe(false);
    expect(acceptsGzip('br, deflate')).toBe(false);
    expect(acceptsGzip('identity')).toBe(false);
    expect(acceptsGzip('')).toBe(false);
    expect(acceptsGzip(undefined)).toBe(false);
  });
});

describe('AnswerBytes', () => {
  it('compresses once and gives back the same bytes uncompressed', async () => {
    const json = Buffer.from(JSON.stringify({ reports: { a: 'x'.repeat(5000) } }));
    const bytes = new AnswerBytes(json);
    const first = bytes.gzip();
    expect(bytes.gzip()).toBe(first);
    const gz = await first;
    expect(gz.length).toBeLessThan(json.length / 10);
    expect(gunzipSync(gz).equals(json)).toBe(true);
  });
});
