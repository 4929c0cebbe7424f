import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import type { Execution } from '@portal/contracts/executions';
import { executionQuery } from '../../lib/queries/execution-status';
import { renderWithProviders, testSettings } from '../../ui/testing/render';
import { ExecutionProgress } from './ExecutionProgress';

const base: Execution = {
  id: 'e1',
  facilityId: 'ship-1',
  kind: 'execute',
  origin: 'request',
  uploads: 0,
  dataFileIds: [],
  state: 'queued',
  period: { from: '2025-03-08T00:00:00.000Z', to: '2025-03-08T23:59:59.999Z' },
  requestedOn: '2025-03-10T08:00:00.000Z',
  startedOn: null,
  finishedOn: null,
  attempts: 0,
  counts: null,
  error: null,
};
/** The answers of GET executions/e1, one per call; the last one repeats. */
let answers: Execution[] = [];
const calls: string[] = [];

beforeEach(() => {
  answers = [];
  calls.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      calls.push(String(input));
      const answer = answers.length > 1 ? answers.shift()! : answers[0]!;
      return Response.json(answer);
    }),
  );
  window.settings = testSettings();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const renderProgress = () => renderWithProviders(<ExecutionProgress executionId="e1" />);

describe('ExecutionProgress', () => {
  it('asks again every 2 s while the execution is queued or running, and no more once it is over', () => {
    const interval = executionQuery('e1').refetchInterval as (query: {
      state: { data: Execution | undefined };
    }) => number | false;
    expect(executionQuery('e1').queryKey).toEqual(['executions', 'detail', 'e1']);
    expect(interval({ state: { data: undefined } })).toBe(2_000);
    expect(interval({ state: { data: base } })).toBe(2_000);
    expect(interval({ state: { data: { ...base, state: 'running' } } })).toBe(2_000);
    expect(interval({ state: { data: { ...base, state: 'done' } } })).toBe(false);
    expect(interval({ state: { data: { ...base, state: 'failed' } } })).toBe(false);
  });

  it('shows the state of the execution it follows by its id: queued, then done with what it wrote', async () => {
    answers = [base];
    const view = renderProgress();
    expect((await screen.findByTestId('execution-progress')).textContent).toBe(
      'Queued since 2025.03.10 08:00',
    );
    expect(calls.map((c) => new URL(c, 'http://localhost').pathname)).toEqual(['/api/executions/e1']);
    view.unmount();
    answers = [
      {
        ...base,
        state: 'done',
        startedOn: '2025-03-10T08:01:00.000Z',
        finishedOn: '2025-03-10T08:02:00.000Z',
        attempts: 1,
        counts: {
          files: 1,
          targets: 1440,
          samples: 30000,
          measurementFields: 20,
          measurementValues: 28800,
          reportFields: 12,
          reportValues: 288,
        },
      },
    ];
    renderProgress();
    expect((await screen.findByRole('status')).textContent).toBe(
      'Done 2025.03.10 08:02: 28,800 measurement field values at 1,440 timestamps, 288 report values',
    );
  });

  it('shows why it failed, as an alert', async () => {
    answers = [
      {
        ...base,
        state: 'failed',
        finishedOn: '2025-03-10T08:02:00.000Z',
        error:
          'None of the mapped channels (CO2_PCT, SO2_PPM) has a value between 2025.03.08 00:00 and 2025.03.09 00:00 (UTC); check the channel mappings of data source Logger',
      },
    ];
    renderProgress();
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Failed 2025.03.10 08:02: None of the mapped channels (CO2_PCT, SO2_PPM) has a value between 2025.03.08 00:00 and 2025.03.09 00:00 (UTC); check the channel mappings of data source Logger',
    );
  });
});
