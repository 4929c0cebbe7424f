import { describe, expect, it } from 'vitest';
import type { EventAnnotation } from '@portal/contracts/events';
import { annotationHistory } from './annotation-history';

const first: EventAnnotation = {
  revision: 1,
  acknowledgedOn: '2025-05-06T08:00:00.000Z',
  acknowledgedBy: 'anna',
  cause: 'sensor',
  actionsTaken: 'Probe cleaned',
  comment: '',
};

describe('annotationHistory', () => {
  it('lists the revisions newest first, the latest as current, each with who and when (UTC)', () => {
    const rows = annotationHistory([
      first,
      {
        revision: 2,
        acknowledgedOn: '2025-05-07T09:30:00.000Z',
        acknowledgedBy: null,
        cause: 'scrubber-equipment',
        actionsTaken: 'Probe cleaned',
        comment: 'The pump had tripped',
      },
    ]);
    expect(rows).toEqual([
      {
        revision: 2,
        title: 'Revision 2 (current)',
        byline: 'by a former user on 2025.05.07 09:30 UTC',
        cause: 'Scrubber equipment',
        actionsTaken: 'Probe cleaned',
        comment: 'The pump had tripped',
        changed: ['cause', 'comment'],
      },
      {
        revision: 1,
        title: 'Revision 1',
        byline: 'by anna on 2025.05.06 08:00 UTC',
        cause: 'Sensor',
        actionsTaken: 'Probe cleaned',
        comment: null,
        changed: [],
      },
    ]);
  });

  it('orders by revision whatever the order given, and says nothing changed when it was given again as it was', () => {
    const again = { ...first, revision: 2, acknowledgedOn: '2025-05-06T09:00:00.000Z' };
    expect(annotationHistory([again, first]).map((r) => [r.title, r.changed])).toEqual([
      ['Revision 2 (current)', []],
      ['Revision 1', []],
    ]);
    expect(annotationHistory([])).toEqual([]);
  });
});
