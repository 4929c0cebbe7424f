import { describe, expect, it } from 'vitest';
import { readAfterArrival } from './read-after-arrival';

/** A read whose answer is the number of reads started so far, finished by hand. */
function controlledReads() {
  const pending: (() => void)[] = [];
  let started = 0;
  const read = () => {
    const n = ++started;
    return new Promise<number>((resolve) => pending.push(() => resolve(n)));
  };
  const finishNext = async () => {
    pending.shift()!();
    await new Promise((r) => setTimeout(r, 0));
  };
  return { read, finishNext, started: () => started };
}

describe('readAfterArrival', () => {
  it('starts a read for the first caller and shares the next read among all who arrive meanwhile', async () => {
    const reads = controlledReads();
    const shared = readAfterArrival(reads.read);
    const first = shared();
    const second = shared();
    const third = shared();
    expect(reads.started()).toBe(1);
    await reads.finishNext();
    // The read of the first caller may predate the others: they get a new one, started once it ended.
    expect(await first).toBe(1);
    expect(reads.started()).toBe(2);
    await reads.finishNext();
    expect(await second).toBe(2);
    expect(await third).toBe(2);
  });

  it('never hands a caller a read that began before it arrived', async () => {
    const reads = controlledReads();
    const shared = readAfterArrival(reads.read);
    const results: { arrivedAfterStart: number; value: Promise<number> }[] = [];
    for (let round = 0; round < 5; round++) {
      results.push({ arrivedAfterStart: reads.started(), value: shared() });
      results.push({ arrivedAfterStart: reads.started(), value: shared() });
      await reads.finishNext();
    }
    await reads.finishNext();
    for (const r of results) expect(await r.value).toBeGreaterThan(r.arrivedAfterStart);
  });

  it('starts afresh after a failed read, and passes the failure to the callers of that read only', async () => {
    let fail = true;
    const shared = readAfterArrival(async () => {
      if (fail) throw new Error('connection lost');
      return 7;
    });
    await expect(shared()).rejects.toThrow('connection lost');
    fail = false;
    expect(await shared()).toBe(7);
  });
});
