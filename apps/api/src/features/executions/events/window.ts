import type { Kysely } from 'kysely';
import type { EventRules } from '@portal/contracts/events';
import type { Database } from '../../../db/schema';
import { readEventsCrossing, readTransientStarts } from '../../../storage';
import { transientGroup } from './classify';

const HOUR = 3_600_000;

export interface EventWindow {
  /** The events starting in [windowFrom, windowTo) are derived again. */
  windowFrom: number;
  windowTo: number;
  /** The values read: the window with a margin on both sides. */
  readFrom: number;
  readTo: number;
}

/**
 * Sub-step "events window": from the start of any stored event crossing the period's start (so an episode crossing
 * it is joined, not cut) to the repeated rule's window after the period (later transients may change class) and the
 * end of any stored event crossing that; read with a margin on both sides (the join, a data gap and a step) so that
 * episodes, gaps and zone changes at the edges are seen whole.
 */
export async function eventWindow(
  db: Kysely<Database>,
  facilityId: string,
  period: { from: number; to: number },
  rules: EventRules,
): Promise<EventWindow> {
  const stepMs = rules.stepSeconds * 1000;
  const joinMs = (rules.joinSamples + 1) * stepMs;
  const marginMs = Math.max(joinMs, rules.dataGapMinutes * 60_000) + stepMs;
  const before = await readEventsCrossing(db, facilityId, period.from, joinMs);
  const windowFrom = Math.min(period.from, before.start ?? period.from);
  let windowTo = period.to + rules.repeatedWindowHours * HOUR;
  const after = await readEventsCrossing(db, facilityId, windowTo, joinMs);
  if (after.end !== null) windowTo = Math.max(windowTo, after.end + stepMs);
  return { windowFrom, windowTo, readFrom: windowFrom - marginMs, readTo: windowTo + marginMs };
}

/**
 * Sub-step "earlier transients": the starts of the ship's stored transients within the repeated rule's window
 * before `windowFrom`, per group of the repeated rule (classify.ts).
 */
export async function earlierTransients(
  db: Kysely<Database>,
  facilityId: string,
  windowFrom: number,
  rules: EventRules,
): Promise<Record<string, number[]>> {
  const earlier = await readTransientStarts(
    db,
    facilityId,
    windowFrom - rules.repeatedWindowHours * HOUR,
    windowFrom,
  );
  const byGroup: Record<string, number[]> = {};
  for (const e of earlier) (byGroup[transientGroup(e.type, e.channel)] ??= []).push(e.start);
  return byGroup;
}
