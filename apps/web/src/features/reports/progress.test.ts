import { describe, expect, it } from 'vitest';
import { approvedProgress } from './progress';

describe('approvedProgress', () => {
  it('is approved over total as a percentage, complete only at 100 %', () => {
    expect(approvedProgress(2, 4)).toEqual({ percent: 50, complete: false, text: '2/4 (50 %)' });
    expect(approvedProgress(4, 4)).toMatchObject({ percent: 100, complete: true });
    expect(approvedProgress(0, 0)).toMatchObject({ percent: 0, complete: false });
  });
});
