import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema';
import { readRecordBookKinds } from '../../../storage';
import type { FuelChange } from './compliant-fuel';

/**
 * Sub-step "recorded fuel changes": the ship's fuel change-overs before `until` as its record book has them, in
 * time order: each fuel change-over entry and each correction that records a sulfur content, leaving out the entries
 * a later correction corrected (a correction without a sulfur content says the change-over did not happen).
 */
export async function recordedFuelChanges(
  db: Kysely<Database>,
  facilityId: string,
  until: number,
): Promise<FuelChange[]> {
  const entries = await readRecordBookKinds(db, facilityId, ['fuel-change-over', 'correction']);
  const corrected = new Set(entries.map((e) => e.correctsId).filter((id) => id !== null));
  const changes: FuelChange[] = [];
  for (const entry of entries) {
    const sulfur = (entry.body as { fuelSulfurPct?: unknown } | null)?.fuelSulfurPct;
    const at = entry.occurredOn.getTime();
    if (corrected.has(entry.id) || typeof sulfur !== 'number' || at >= until) continue;
    changes.push({ at, sulfurPct: sulfur });
  }
  return changes.sort((a, b) => a.at - b.at);
}
