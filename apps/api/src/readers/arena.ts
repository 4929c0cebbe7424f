/**
 * Memory for the columns of one parse at a time, kept between parses: fresh memory costs its page faults on first
 * touch (~80 ms per 120 MB of columns here, more than a quarter of a 100 MB file's parse). The parse worker
 * (features/files/parse-worker.ts) owns one and packs every column before it parses the next file; a caller that
 * keeps a parsed file's values must not pass an arena.
 */
export class ColumnArena {
  private buffer: ArrayBuffer | null = null;

  constructor(private readonly maxBytes: number) {}

  /**
   * `count` columns of `length` doubles, valid until the next call (not zeroed: the reader writes every row). A parse
   * larger than the arena's limit gets fresh memory of its own.
   */
  columns(count: number, length: number): Float64Array[] {
    const bytes = count * length * 8;
    if (bytes > this.maxBytes) return Array.from({ length: count }, () => new Float64Array(length));
    if (!this.buffer || this.buffer.byteLength < bytes) this.buffer = new ArrayBuffer(bytes);
    const buffer = this.buffer;
    return Array.from({ length: count }, (_, i) => new Float64Array(buffer, i * length * 8, length));
  }
}
