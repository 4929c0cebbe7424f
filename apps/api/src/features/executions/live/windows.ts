import { calculationWindowSeconds } from '../calculations';
import { nameOf, type ExecutionPlan } from '../plan';

/**
 * The rules of live windows (docs/decisions/0122-live-windows.md), pure: which minutes a stream touched, merged; and
 * the period the engine executes for them: the touched minutes widened to the calculations' grid at both ends and,
 * after them, by the time a sample's effect reaches forward through the calculations.
 */

/** A window [from, to) in epoch ms. */
export interface TimeWindow {
  from: number;
  to: number;
}

/** How many windows a ship's data source keeps waiting at most; more are joined where the gaps are smallest. */
export const MAX_WAITING_WINDOWS = 50;

/**
 * The windows sorted and merged: overlapping ones, and those less than `gapMs` apart, become one. Empty or
 * reversed windows are dropped.
 */
export function mergeWindows(windows: readonly TimeWindow[], gapMs = 0): TimeWindow[] {
  const sorted = windows.filter((w) => w.to > w.from).sort((a, b) => a.from - b.from);
  const merged: TimeWindow[] = [];
  for (const w of sorted) {
    const last = merged[merged.length - 1];
    if (last && w.from <= last.to + gapMs) last.to = Math.max(last.to, w.to);
    else merged.push({ ...w });
  }
  return merged;
}

/** Merged windows, at most `max`: while there are more, the two with the smallest gap between them become one. */
export function boundedWindows(windows: readonly TimeWindow[], max = MAX_WAITING_WINDOWS): TimeWindow[] {
  const merged = mergeWindows(windows);
  while (merged.length > max) {
    let best = 1;
    for (let i = 2; i < merged.length; i++)
      if (merged[i]!.from - merged[i - 1]!.to < merged[best]!.from - merged[best - 1]!.to) best = i;
    merged[best - 1]!.to = merged[best]!.to;
    merged.splice(best, 1);
  }
  return merged;
}

/** What decides a window's edges: the grids the values are computed on and how far a sample's effect reaches. */
export interface WindowReach {
  /** The measurement intervals and report spans (ms) the window's edges are aligned to. */
  gridsMs: number[];
  /** How far after a sample the values it changes may lie (ms). */
  reachMs: number;
}

/**
 * Sub-step "reach" (pure): the grids are every approved measurement interval and report span of the plan (a target
 * is the first sample of its interval, a report value the span's); the reach is the longest path through the
 * measurement calculations, each adding its interval, its preload (a raw channel or field held that long) and its
 * longest AVERAGE_OVER window to the reach of the fields it reads.
 */
export function windowReach(
  plan: Pick<
    ExecutionPlan,
    'order' | 'measurementCalcsByField' | 'reportCalcsByField' | 'fieldName' | 'channelById'
  >,
): WindowReach {
  const grids = new Set<number>([60_000]);
  for (const calcs of plan.measurementCalcsByField.values())
    for (const c of calcs) grids.add(Math.max(1, c.interval) * 1000);
  for (const calcs of plan.reportCalcsByField.values())
    for (const c of calcs) grids.add(Math.max(1, c.span) * 1000);
  const reach = new Map<string, number>();
  let reachMs = 0;
  for (const fieldId of plan.order) {
    let field = 0;
    for (const c of plan.measurementCalcsByField.get(fieldId) ?? []) {
      const window = calculationWindowSeconds(
        c.algorithm,
        c.inputIds.map((id) => nameOf(plan, id)),
      );
      const inputs = Math.max(0, ...c.inputIds.map((id) => reach.get(id) ?? 0));
      field = Math.max(field, (Math.max(1, c.interval) + c.preload + window) * 1000 + inputs);
    }
    reach.set(fieldId, field);
    reachMs = Math.max(reachMs, field);
  }
  return { gridsMs: [...grids].sort((a, b) => a - b), reachMs };
}

const DAY_MS = 86_400_000;

/** `ms` moved down (or up) until it lies on every grid; a day start when the grids do not meet sooner. */
function onEveryGrid(ms: number, gridsMs: readonly number[], up: boolean): number {
  let at = ms;
  for (let round = 0; round < 20; round++) {
    let moved = false;
    for (const g of gridsMs) {
      const aligned = up ? Math.ceil(at / g) * g : Math.floor(at / g) * g;
      if (aligned !== at) {
        at = aligned;
        moved = true;
      }
    }
    if (!moved) return at;
  }
  return up ? Math.ceil(ms / DAY_MS) * DAY_MS : Math.floor(ms / DAY_MS) * DAY_MS;
}

/**
 * Sub-step "execution window" (pure): the period the engine executes for touched minutes: from the start of the grid
 * cell holding the first touched sample to the end of the cell holding the last value it may change.
 */
export function executionWindow(touched: TimeWindow, reach: WindowReach): TimeWindow {
  return {
    from: onEveryGrid(touched.from, reach.gridsMs, false),
    to: onEveryGrid(touched.to + reach.reachMs, reach.gridsMs, true),
  };
}
