import {
  formatDateOnly,
  formatDateTime,
  formatTimeOnly,
  parseDateOnly,
  parseTimeOnly,
  toDate,
  type DateInput,
} from './dates';
import { MESSAGES } from './constants';

/** The execution period of the files screen (spec part 1 sections 4 and 5). Dates 'YYYY-MM-DD', times 'HH:mm', UTC. */
export interface ExecutionPeriod {
  fromDate: string;
  fromTime: string;
  toDate: string;
  toTime: string;
}

export type ExecutionPeriodField = keyof ExecutionPeriod;

export const EMPTY_EXECUTION_PERIOD: ExecutionPeriod = { fromDate: '', fromTime: '', toDate: '', toTime: '' };

export const EXECUTION_PERIOD_MESSAGES = {
  required: 'Not filled out',
  // The spec gives no text for these; ours.
  invalidDate: 'Enter a date as YYYY-MM-DD',
  invalidTime: 'Enter a time as HH:mm',
  fromAfterTo: 'From date cannot be after to date',
  toTimeBeforeFromTime: 'To time cannot be before from time',
} as const;

export interface DataFileSpan {
  timeStampMin: DateInput | null;
  timeStampMax: DateInput | null;
}

/**
 * The earliest start and latest end of the selected files. Empty when nothing is selected
 * (or no selected file has timestamps). The to time is the minute of the last sample; the request
 * extends it to :59.999 so that sample is included.
 */
export function executionPeriodFromFiles(files: readonly DataFileSpan[]): ExecutionPeriod {
  let min = Infinity;
  let max = -Infinity;
  for (const f of files) {
    const a = toDate(f.timeStampMin);
    const b = toDate(f.timeStampMax);
    if (a) min = Math.min(min, a.getTime());
    if (b) max = Math.max(max, b.getTime());
  }
  if (!Number.isFinite(min) || !Number.isFinite(max)) return { ...EMPTY_EXECUTION_PERIOD };
  return {
    fromDate: formatDateOnly(min),
    fromTime: formatTimeOnly(min),
    toDate: formatDateOnly(max),
    toTime: formatTimeOnly(max),
  };
}

/** One message per field at most: missing, malformed, or out of order. */
export function executionPeriodErrors(
  period: ExecutionPeriod,
): Partial<Record<ExecutionPeriodField, string>> {
  const errors: Partial<Record<ExecutionPeriodField, string>> = {};
  const M = EXECUTION_PERIOD_MESSAGES;
  for (const field of ['fromDate', 'fromTime', 'toDate', 'toTime'] as const) {
    const value = period[field].trim();
    if (!value) errors[field] = M.required;
    else if (field.endsWith('Date') && !parseDateOnly(value)) errors[field] = M.invalidDate;
    else if (field.endsWith('Time') && parseTimeOnly(value) === null) errors[field] = M.invalidTime;
  }
  if (!errors.fromDate && !errors.toDate) {
    const from = parseDateOnly(period.fromDate)!.getTime();
    const to = parseDateOnly(period.toDate)!.getTime();
    if (from > to) errors.fromDate = M.fromAfterTo;
    else if (from === to && !errors.fromTime && !errors.toTime) {
      if (parseTimeOnly(period.toTime)! < parseTimeOnly(period.fromTime)!)
        errors.toTime = M.toTimeBeforeFromTime;
    }
  }
  return errors;
}

/**
 * Run needs all four parts filled and at least one file selected (the spec's rule); we also keep it
 * disabled while a part is malformed or out of order, since the request would be meaningless.
 */
export function canRun(period: ExecutionPeriod, selectedCount: number): boolean {
  return selectedCount >= 1 && Object.keys(executionPeriodErrors(period)).length === 0;
}

/** from = date T time :00.000Z, to = date T time :59.999Z. */
export function executionRequestRange(period: ExecutionPeriod): { from: string; to: string } {
  return {
    from: `${period.fromDate.trim()}T${period.fromTime.trim()}:00.000Z`,
    to: `${period.toDate.trim()}T${period.toTime.trim()}:59.999Z`,
  };
}

// --- Failed executions -------------------------------------------------------------------------

export const FAILED = 'Failed';
const MAX_ERROR_LENGTH = 300;

export interface ExecutionFailure {
  label: typeof FAILED;
  /** When it failed, 'YYYY.MM.DD HH:mm' UTC (or when it started, if the end is unknown). */
  at: string;
  /** The error as a user reads it: one line, at most 300 characters. */
  error: string;
}

/**
 * A ship's last execution when it failed (the API reports only those): Failed with its time and a readable error.
 * The error keeps its first line only (no stack), without a leading "Error: ", cut at 300 characters.
 */
export function executionFailure(
  facilityId: string,
  failed: readonly {
    facilityId: string;
    startedOn: string | null;
    finishedOn: string | null;
    error: string | null;
  }[],
): ExecutionFailure | null {
  const last = failed.find((f) => f.facilityId === facilityId);
  if (!last) return null;
  const when = toDate(last.finishedOn) ?? toDate(last.startedOn);
  return { label: FAILED, at: when ? formatDateTime(when) : '', error: readableExecutionError(last.error) };
}

export function readableExecutionError(error: string | null | undefined): string {
  const line = (error ?? '')
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l.length > 0)
    ?.replace(/^(\w*Error):\s*/, '');
  if (!line) return 'The calculation stopped without an error message.';
  return line.length > MAX_ERROR_LENGTH ? `${line.slice(0, MAX_ERROR_LENGTH - 1)}…` : line;
}

// --- Following one execution -------------------------------------------------------------------

export interface ExecutionProgress {
  /** Still queued or running: ask again. */
  pending: boolean;
  severity: 'info' | 'success' | 'error';
  text: string;
}

const count = (n: number) => n.toLocaleString('en-US');

/**
 * One line about an execution the user started (the Run panel follows it by its id until it is done or failed):
 * queued, processing since, done with what it wrote, or failed with the readable error.
 */
export function executionProgress(execution: {
  state: 'queued' | 'running' | 'done' | 'failed';
  requestedOn: string;
  startedOn: string | null;
  finishedOn: string | null;
  error: string | null;
  counts: { measurementValues: number; reportValues: number; targets: number } | null;
}): ExecutionProgress {
  switch (execution.state) {
    case 'queued':
      return {
        pending: true,
        severity: 'info',
        text: execution.error
          ? `Queued again after a failed attempt: ${readableExecutionError(execution.error)}`
          : `Queued since ${formatDateTime(execution.requestedOn)}`,
      };
    case 'running':
      return {
        pending: true,
        severity: 'info',
        text: `Processing since ${formatDateTime(execution.startedOn ?? execution.requestedOn)}`,
      };
    case 'done': {
      const c = execution.counts;
      const what = c
        ? `: ${count(c.measurementValues)} measurement field values at ${count(c.targets)} timestamps, ${count(c.reportValues)} report values`
        : '';
      return {
        pending: false,
        severity: 'success',
        text: `Done ${formatDateTime(execution.finishedOn)}${what}`,
      };
    }
    case 'failed':
      return {
        pending: false,
        severity: 'error',
        text: `${FAILED} ${formatDateTime(execution.finishedOn ?? execution.startedOn)}: ${readableExecutionError(execution.error)}`,
      };
  }
}

// --- The execution an upload queues -------------------------------------------------------------

/** The upload dialog's choice (on unless unticked): the upload queues the execution of the uploaded files' range. */
export const RUN_UPLOADED_FILES = 'Run for the uploaded files';
export const UPLOAD_JOINED_EXECUTION =
  'Added to the calculation already queued for this ship: it runs once for all the files uploaded meanwhile.';

/**
 * What the upload dialog says of the execution its upload queued (the spec's execution notice) or joined; null
 * when the upload queued nothing (nothing imported, or Run for the uploaded files unticked).
 */
export function uploadExecutionNote(execution: { joined: boolean } | null | undefined): string | null {
  if (!execution) return null;
  return execution.joined ? UPLOAD_JOINED_EXECUTION : MESSAGES.EXECUTION_SUCCESS;
}
