import { describe, expect, it } from 'vitest';
import { waitFor } from './wait';

describe('waitFor', () => {
  it('answers what the condition read once it holds', async () => {
    let reads = 0;
    expect(
      await waitFor(() => (++reads >= 3 ? { rows: reads } : null), { what: 'rows', intervalMs: 1 }),
    ).toEqual({ rows: 3 });
    const list = await waitFor(async () => Array.from({ length: reads++ }), {
      what: 'five items',
      until: (items) => items.length >= 5,
      intervalMs: 1,
    });
    expect(list).toHaveLength(5);
  });

  it('asks again after an error and fails naming what it waited for and the last thing it saw', async () => {
    let reads = 0;
    expect(
      await waitFor(
        () => {
          if (++reads < 3) throw new Error('connection refused');
          return true;
        },
        { what: 'the server', intervalMs: 1 },
      ),
    ).toBe(true);
    await expect(
      waitFor(async () => ({ state: 'queued' }), {
        what: 'execution 7 to finish',
        until: (row) => row.state === 'done',
        timeoutMs: 20,
        intervalMs: 1,
      }),
    ).rejects.toThrow(
      'timed out after 20 ms waiting for execution 7 to finish; last seen: {"state":"queued"}',
    );
    await expect(
      waitFor(
        () => {
          throw new Error('connection refused');
        },
        { what: 'the server', timeoutMs: 20, intervalMs: 1 },
      ),
    ).rejects.toThrow('waiting for the server; last seen: error: connection refused');
  });
});
