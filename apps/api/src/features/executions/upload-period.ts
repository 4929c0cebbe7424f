/**
 * What an upload's execution covers, as pure rules (features/executions/upload.ts applies them): the period of the
 * uploaded files, and the union of a waiting execution with a later upload's.
 */

/** A period in epoch milliseconds; `to` is the end of the last sample's minute, as Run sets it (`HH:mm:59.999`). */
export interface ExecutionPeriodMs {
  from: number;
  to: number;
}

/** What an upload execution covers: its period and the data files that asked for it. */
export interface UploadCoverage extends ExecutionPeriodMs {
  dataFileIds: string[];
}

const MINUTE_MS = 60_000;

const timeOf = (value: Date | string | number) =>
  typeof value === 'number' ? value : new Date(value).getTime();

/**
 * The period of the uploaded files: from the first sample of the earliest to the end of the minute of the last
 * sample of the latest (the files screen's Run takes the same period for the same files). Null without a file with a
 * valid range.
 */
export function uploadedPeriod(
  files: readonly { time_stamp_min: Date | string | number; time_stamp_max: Date | string | number }[],
): ExecutionPeriodMs | null {
  let from = Infinity;
  let to = -Infinity;
  for (const file of files) {
    const min = timeOf(file.time_stamp_min);
    const max = timeOf(file.time_stamp_max);
    if (!Number.isFinite(min) || !Number.isFinite(max) || max < min) continue;
    from = Math.min(from, min);
    to = Math.max(to, max);
  }
  if (!Number.isFinite(from)) return null;
  return { from, to: Math.floor(to / MINUTE_MS) * MINUTE_MS + MINUTE_MS - 1 };
}

/**
 * A waiting execution widened by a later upload: the one period that covers both (the engine recomputes whole UTC
 * days, and a day computed twice gives the same values, so the days between two distant uploads cost time, never
 * correctness), and every data file of both, each once, in the order they came.
 */
export function coverageUnion(waiting: UploadCoverage, upload: UploadCoverage): UploadCoverage {
  return {
    from: Math.min(waiting.from, upload.from),
    to: Math.max(waiting.to, upload.to),
    dataFileIds: [...new Set([...waiting.dataFileIds, ...upload.dataFileIds])],
  };
}
