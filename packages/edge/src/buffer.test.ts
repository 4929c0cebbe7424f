import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DiskBuffer, type DroppedSamples, type Sample } from './buffer';

const dir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'psdu-buffer-'));
const samples = (from: number, count: number): Sample[] =>
  Array.from({ length: count }, (_, i) => ({ dataSourceId: 'ds', channel: 'SO2', time: from + i, value: i }));

describe('DiskBuffer', () => {
  it('deletes a batch only once everything before it is acknowledged, whatever order the PUBACKs come in', () => {
    const folder = dir();
    const buffer = new DiskBuffer({ dir: folder, maxBytes: 1 << 20 });
    buffer.append(samples(0, 10));
    const a = buffer.take(4)!;
    const b = buffer.take(4)!;
    expect([a.from, a.to, b.from, b.to]).toEqual([0, 4, 4, 8]);
    buffer.ack(b.from, b.to);
    expect(buffer.pending).toBe(10);
    buffer.ack(a.from, a.to);
    expect(buffer.pending).toBe(2);
    // A lost connection: the rest again, from the oldest not acknowledged.
    buffer.rewind();
    expect(buffer.take(10)!.samples.map((s) => s.time)).toEqual([8, 9]);
  });

  it('keeps what was not acknowledged across a restart, without a line cut by a crash', () => {
    const folder = dir();
    const first = new DiskBuffer({ dir: folder, maxBytes: 1 << 20 });
    first.append(samples(100, 5));
    const batch = first.take(2)!;
    first.ack(batch.from, batch.to);
    // A crash in the middle of a write leaves half a line.
    const segment = fs.readdirSync(folder).find((f) => f.endsWith('.jsonl'))!;
    fs.appendFileSync(path.join(folder, segment), '["ds","SO2",10');

    const second = new DiskBuffer({ dir: folder, maxBytes: 1 << 20 });
    expect(second.pending).toBe(3);
    expect(second.take(10)!.samples.map((s) => s.time)).toEqual([102, 103, 104]);
    // New samples are numbered after the old ones, in a segment of their own.
    second.append(samples(200, 1));
    expect(second.nextIndex).toBe(6);
    expect(second.take(10)!.samples.map((s) => s.time)).toEqual([200]);
  });

  it('drops the oldest segment beyond its bound and says how many samples of which times', () => {
    const drops: DroppedSamples[] = [];
    const buffer = new DiskBuffer({
      dir: dir(),
      maxBytes: 2048,
      segmentBytes: 256,
      onDrop: (d) => drops.push(d),
    });
    buffer.append(samples(1000, 200));
    expect(buffer.bytes).toBeLessThanOrEqual(2048);
    expect(buffer.dropped).toBe(drops.reduce((sum, d) => sum + d.count, 0));
    expect(buffer.dropped + buffer.pending).toBe(200);
    expect(drops[0]!.firstTime).toBe(1000);
    const kept = [];
    for (let batch = buffer.take(50); batch; batch = buffer.take(50))
      kept.push(...batch.samples.map((s) => s.time));
    expect(kept).toEqual(Array.from({ length: buffer.pending }, (_, i) => 1200 - buffer.pending + i));
  });
});
