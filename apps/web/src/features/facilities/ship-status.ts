import type { Facility } from '@portal/contracts/facilities';
import type { FailedExecution, RunningExecution } from '@portal/contracts/executions';
import { executionFailure, formatDateTime, MESSAGES, toDate } from '@portal/contracts/rules';

export type ShipStatus =
  | { kind: 'processing'; label: string; since: string }
  | { kind: 'failed'; label: string; at: string; error: string }
  | { kind: 'ready'; label: string }
  | { kind: 'no-data'; label: string };

export const READY = 'Ready';

/**
 * The status column of the ship list: Processing with the start time while an execution runs (the earliest,
 * when several do), else Failed with its time and error when the ship's last execution failed, else Ready when the
 * ship has data, else No data.
 */
export function shipStatus(
  facility: Pick<Facility, 'id' | 'dataTimeStampMax'>,
  running: readonly Pick<RunningExecution, 'facilityId' | 'startedOn'>[],
  failed: readonly Omit<FailedExecution, 'id'>[] = [],
): ShipStatus {
  const starts = running
    .filter((e) => e.facilityId === facility.id)
    .map((e) => toDate(e.startedOn))
    .filter((d): d is Date => d !== null)
    .sort((a, b) => a.getTime() - b.getTime());
  if (starts.length)
    return { kind: 'processing', label: MESSAGES.PROCESSING, since: formatDateTime(starts[0]) };
  const failure = executionFailure(facility.id, failed);
  if (failure) return { kind: 'failed', label: failure.label, at: failure.at, error: failure.error };
  if (toDate(facility.dataTimeStampMax)) return { kind: 'ready', label: READY };
  return { kind: 'no-data', label: MESSAGES.NO_DATA };
}

/** Data coverage % with one decimal, or No data. */
export const coverageText = (coverage: number | null | undefined) =>
  coverage === null || coverage === undefined || Number.isNaN(coverage)
    ? MESSAGES.NO_DATA
    : `${(Math.round(coverage * 10) / 10).toFixed(1)} %`;
