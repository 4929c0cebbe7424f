import { describe, expect, it } from 'vitest';
import {
  canCancel,
  canExecuteOrRemove,
  NO_PENDING_RECALCULATIONS,
  RECALCULATION_QUEUE_TITLE,
  recalculationsCancelledText,
  recalculationsQueuedText,
  recalculationsRemovedText,
  sortByRequested,
  versionLabel,
} from './recalculation';

const requested = { recalculationQueuedOn: null };
const queued = { recalculationQueuedOn: '2024-01-01T10:00:00Z' };

describe('queue buttons', () => {
  it('enables Execute and Remove only for requested rows', () => {
    expect(canExecuteOrRemove([requested])).toBe(true);
    expect(canExecuteOrRemove([requested, requested])).toBe(true);
    expect(canExecuteOrRemove([requested, queued])).toBe(false);
    expect(canExecuteOrRemove([queued])).toBe(false);
    expect(canExecuteOrRemove([])).toBe(false);
  });

  it('enables Cancel only when every selected row is queued', () => {
    expect(canCancel([queued])).toBe(true);
    expect(canCancel([queued, queued])).toBe(true);
    expect(canCancel([queued, requested])).toBe(false);
    expect(canCancel([requested])).toBe(false);
    expect(canCancel([])).toBe(false);
  });
});

describe('queue texts', () => {
  it('shows the calculation version as version.revision', () => {
    expect(versionLabel(3, 0)).toBe('3.0');
    expect(versionLabel(12, 7)).toBe('12.7');
  });

  it('uses the success texts of the spec', () => {
    expect(recalculationsRemovedText(2)).toBe('2 recalculation(s) removed from queue');
    expect(recalculationsCancelledText(1)).toBe('1 recalculation(s) cancelled in queue');
    expect(recalculationsQueuedText(5)).toBe('5 recalculation(s) queued for execution');
    expect(RECALCULATION_QUEUE_TITLE).toBe('Pending report field or measurement field recalculations');
    expect(NO_PENDING_RECALCULATIONS).toBe('No pending recalculations');
  });
});

describe('sortByRequested', () => {
  it('puts the oldest request first and missing dates last without changing the input', () => {
    const rows = [
      { id: 'b', recalculationRequestedOn: '2024-03-01T00:00:00Z' },
      { id: 'x', recalculationRequestedOn: null },
      { id: 'a', recalculationRequestedOn: '2024-02-29T23:59:59Z' },
      { id: 'c', recalculationRequestedOn: '2024-03-01T00:00:01Z' },
    ];
    expect(sortByRequested(rows).map((r) => r.id)).toEqual(['a', 'b', 'c', 'x']);
    expect(rows[0]?.id).toBe('b');
  });
});
