import { describe, expect, it } from 'vitest';
import { approveAll, type ApproveAllProgress } from './approve-all';

describe('Approve all', () => {
  it('approves the first listed calculation of each approvable field and counts completed, failed and skipped', async () => {
    const fields = [
      { id: 'ok', calculations: 2, approvedCalculations: 0 },
      { id: 'done', calculations: 1, approvedCalculations: 1 },
      { id: 'none', calculations: 0, approvedCalculations: 0 },
      { id: 'bad', calculations: 1, approvedCalculations: 0 },
      { id: 'gone', calculations: 1, approvedCalculations: 0 },
    ];
    const approved: string[] = [];
    const progress: ApproveAllProgress[] = [];
    const result = await approveAll(
      fields,
      {
        list: async (id) => (id === 'gone' ? [] : [{ id: `${id}-newest` }, { id: `${id}-older` }]),
        approve: async (fieldId, calcId) => {
          if (fieldId === 'bad') throw new Error('syntax errors');
          approved.push(calcId);
        },
      },
      (p) => progress.push(p),
    );
    expect(approved).toEqual(['ok-newest']);
    expect(result).toEqual({ total: 3, completed: 1, failed: 1, skipped: 1 });
    expect(progress.map((p) => p.completed + p.failed + p.skipped)).toEqual([0, 1, 2, 3]);
  });
});
