import { toDate } from './dates';

/** The recalculation queue screen (spec part 2 sections 2, 4 and 8). */

export interface QueueSelection {
  recalculationQueuedOn: string | null;
}

/** Execute and Remove from queue: at least one row selected and none of them queued. */
export function canExecuteOrRemove(selected: readonly QueueSelection[]): boolean {
  return selected.length >= 1 && selected.every((r) => !r.recalculationQueuedOn);
}

/** Cancel execution: at least one row selected and all of them queued. */
export function canCancel(selected: readonly QueueSelection[]): boolean {
  return selected.length >= 1 && selected.every((r) => !!r.recalculationQueuedOn);
}

/** A calculation version as shown in the queue: version.revision. */
export function versionLabel(version: number, revision: number): string {
  return `${version}.${revision}`;
}

export const RECALCULATION_QUEUE_TITLE = 'Pending report field or measurement field recalculations';
export const NO_PENDING_RECALCULATIONS = 'No pending recalculations';

export const recalculationsRemovedText = (n: number) => `${n} recalculation(s) removed from queue`;
export const recalculationsCancelledText = (n: number) => `${n} recalculation(s) cancelled in queue`;
export const recalculationsQueuedText = (n: number) => `${n} recalculation(s) queued for execution`;

/** Oldest request first (the queue order); rows without a valid requested date last. Does not change the input. */
export function sortByRequested<T extends { recalculationRequestedOn: string | null }>(
  rows: readonly T[],
): T[] {
  const time = (r: T) => toDate(r.recalculationRequestedOn)?.getTime() ?? Infinity;
  return [...rows].sort((a, b) => time(a) - time(b));
}
