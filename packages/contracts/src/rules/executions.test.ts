import { describe, expect, it } from 'vitest';
import {
  canRun,
  EMPTY_EXECUTION_PERIOD,
  executionPeriodErrors,
  executionPeriodFromFiles,
  executionFailure,
  executionProgress,
  executionRequestRange,
  readableExecutionError,
  uploadExecutionNote,
} from './executions';

const period = (fromDate: string, fromTime: string, toDate: string, toTime: string) => ({
  fromDate,
  fromTime,
  toDate,
  toTime,
});

describe('executionPeriodFromFiles', () => {
  it('spans the earliest start and latest end of the selected files in UTC', () => {
    const files = [
      { timeStampMin: '2024-02-28T10:15:30Z', timeStampMax: '2024-02-28T23:59:00Z' },
      { timeStampMin: '2024-02-29T00:00:00+02:00', timeStampMax: '2024-03-01T00:59:59Z' },
    ];
    expect(executionPeriodFromFiles(files)).toEqual(period('2024-02-28', '10:15', '2024-03-01', '00:59'));
  });

  it('is empty when nothing is selected', () => {
    expect(executionPeriodFromFiles([])).toEqual(EMPTY_EXECUTION_PERIOD);
  });

  it('ignores files without timestamps', () => {
    expect(executionPeriodFromFiles([{ timeStampMin: null, timeStampMax: null }])).toEqual(
      EMPTY_EXECUTION_PERIOD,
    );
    expect(
      executionPeriodFromFiles([
        { timeStampMin: null, timeStampMax: null },
        { timeStampMin: '2023-12-31T22:00:00Z', timeStampMax: '2024-01-01T01:00:00Z' },
      ]),
    ).toEqual(period('2023-12-31', '22:00', '2024-01-01', '01:00'));
  });
});

describe('executionPeriodErrors', () => {
  it('says Not filled out for every empty part', () => {
    expect(executionPeriodErrors(EMPTY_EXECUTION_PERIOD)).toEqual({
      fromDate: 'Not filled out',
      fromTime: 'Not filled out',
      toDate: 'Not filled out',
      toTime: 'Not filled out',
    });
    expect(executionPeriodErrors(period('2024-01-01', '  ', '2024-01-02', '10:00'))).toEqual({
      fromTime: 'Not filled out',
    });
  });

  it('puts the error on the from date when it is after the to date', () => {
    expect(executionPeriodErrors(period('2024-01-01', '00:00', '2023-12-31', '23:59'))).toEqual({
      fromDate: 'From date cannot be after to date',
    });
  });

  it('puts the error on the to time when it is before the from time on the same day', () => {
    expect(executionPeriodErrors(period('2024-02-29', '10:30', '2024-02-29', '10:29'))).toEqual({
      toTime: 'To time cannot be before from time',
    });
  });

  it('allows equal times on one day and any times on different days', () => {
    expect(executionPeriodErrors(period('2024-02-29', '10:30', '2024-02-29', '10:30'))).toEqual({});
    expect(executionPeriodErrors(period('2024-02-28', '23:00', '2024-02-29', '01:00'))).toEqual({});
  });

  it('rejects malformed dates and times', () => {
    expect(executionPeriodErrors(period('2023-02-29', '25:00', '2023-03-01', '10:00'))).toEqual({
      fromDate: 'Enter a date as YYYY-MM-DD',
      fromTime: 'Enter a time as HH:mm',
    });
  });
});

describe('canRun', () => {
  const full = period('2024-01-01', '00:00', '2024-01-31', '23:59');

  it('needs all four parts and at least one file', () => {
    expect(canRun(full, 1)).toBe(true);
    expect(canRun(full, 3)).toBe(true);
    expect(canRun(full, 0)).toBe(false);
    expect(canRun({ ...full, toTime: '' }, 1)).toBe(false);
    expect(canRun({ ...full, fromDate: '' }, 1)).toBe(false);
  });

  it('stays disabled while the period is out of order', () => {
    expect(canRun(period('2024-02-01', '00:00', '2024-01-31', '23:59'), 1)).toBe(false);
  });
});

describe('executionRequestRange', () => {
  it('builds UTC instants covering whole minutes', () => {
    expect(executionRequestRange(period('2024-02-28', '10:15', '2024-03-01', '00:59'))).toEqual({
      from: '2024-02-28T10:15:00.000Z',
      to: '2024-03-01T00:59:59.999Z',
    });
  });

  it('round-trips the period taken from files', () => {
    const files = [{ timeStampMin: '2024-05-01T00:00:00Z', timeStampMax: '2024-05-31T23:59:00Z' }];
    expect(executionRequestRange(executionPeriodFromFiles(files))).toEqual({
      from: '2024-05-01T00:00:00.000Z',
      to: '2024-05-31T23:59:59.999Z',
    });
  });
});

describe('executionFailure', () => {
  const failed = [
    {
      facilityId: 'a',
      startedOn: '2025-02-01T06:00:01Z',
      finishedOn: '2025-02-01T06:00:30Z',
      error: 'Measurement field SCRUBBER_FUEL, calculation 9.0: a String output (line 1, character 1)',
    },
    {
      facilityId: 'b',
      startedOn: '2025-02-02T07:00:00Z',
      finishedOn: null,
      error: 'Error: connection terminated\n    at Client.query (node_modules/pg/lib/client.js:1:1)',
    },
  ];

  it('gives Failed with the time it failed and its error', () => {
    expect(executionFailure('a', failed)).toEqual({
      label: 'Failed',
      at: '2025.02.01 06:00',
      error: 'Measurement field SCRUBBER_FUEL, calculation 9.0: a String output (line 1, character 1)',
    });
  });

  it('keeps the first line of a technical error, without the stack, and falls back to the start time', () => {
    expect(executionFailure('b', failed)).toEqual({
      label: 'Failed',
      at: '2025.02.02 07:00',
      error: 'connection terminated',
    });
  });

  it('is null for a ship whose last execution did not fail', () => {
    expect(executionFailure('c', failed)).toBeNull();
  });

  it('says so when no error was recorded and cuts a long one', () => {
    expect(readableExecutionError(null)).toBe('The calculation stopped without an error message.');
    expect(readableExecutionError('x'.repeat(500))).toHaveLength(300);
  });
});

describe('executionProgress', () => {
  const base = {
    requestedOn: '2025-03-10T08:00:00.000Z',
    startedOn: null,
    finishedOn: null,
    error: null,
    counts: null,
  };
  it('says queued and processing while it is pending', () => {
    expect(executionProgress({ ...base, state: 'queued' })).toEqual({
      pending: true,
      severity: 'info',
      text: 'Queued since 2025.03.10 08:00',
    });
    expect(
      executionProgress({
        ...base,
        state: 'queued',
        error: 'Attempt 1 failed, retrying: Error: connection lost',
      }),
    ).toMatchObject({
      pending: true,
      text: 'Queued again after a failed attempt: Attempt 1 failed, retrying: Error: connection lost',
    });
    expect(executionProgress({ ...base, state: 'running', startedOn: '2025-03-10T08:01:00.000Z' })).toEqual({
      pending: true,
      severity: 'info',
      text: 'Processing since 2025.03.10 08:01',
    });
  });

  it('says what a done run wrote, and why a failed one failed', () => {
    expect(
      executionProgress({
        ...base,
        state: 'done',
        finishedOn: '2025-03-10T08:02:00.000Z',
        counts: { measurementValues: 57600, reportValues: 1488, targets: 2880 },
      }),
    ).toEqual({
      pending: false,
      severity: 'success',
      text: 'Done 2025.03.10 08:02: 57,600 measurement field values at 2,880 timestamps, 1,488 report values',
    });
    expect(
      executionProgress({
        ...base,
        state: 'failed',
        finishedOn: '2025-03-10T08:02:00.000Z',
        error: 'ExecutionError: None of the mapped channels (CO2_PCT, SO2_PPM) has a value\n  at read',
      }),
    ).toEqual({
      pending: false,
      severity: 'error',
      text: 'Failed 2025.03.10 08:02: None of the mapped channels (CO2_PCT, SO2_PPM) has a value',
    });
  });
});

describe('uploadExecutionNote', () => {
  it("says the upload's execution is queued, or that it joined the one waiting, and nothing without one", () => {
    expect(uploadExecutionNote({ joined: false })).toBe(
      "Execution successful! It's running in the background, so it might take a little time before the results are visible.",
    );
    expect(uploadExecutionNote({ joined: true })).toBe(
      'Added to the calculation already queued for this ship: it runs once for all the files uploaded meanwhile.',
    );
    expect(uploadExecutionNote(null)).toBeNull();
    expect(uploadExecutionNote(undefined)).toBeNull();
  });
});
