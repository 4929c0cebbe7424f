/** A fuel change-over as the record book has it: from `at` (ms) on, the fuel in use has `sulfurPct` % m/m. */
export interface FuelChange {
  at: number;
  sulfurPct: number;
}

/**
 * Sub-step "compliant fuel": per target, 1 when the last recorded fuel change-over at or before it put the ship on a fuel within the area's
 * sulfur limit (0.10 % m/m in an ECA, 0.50 % outside; where the position is unknown, the ECA's), else 0. `changes`
 * in time order; before the first one the record book says nothing and the logged data decide.
 */
export function compliantFuelColumn(
  targets: Float64Array,
  eca: Uint8Array,
  changes: readonly FuelChange[],
  limits: { eca: number; global: number },
): Uint8Array {
  const column = new Uint8Array(targets.length);
  let next = 0;
  let sulfur: number | null = null;
  for (let i = 0; i < targets.length; i++) {
    while (next < changes.length && changes[next]!.at <= targets[i]!) sulfur = changes[next++]!.sulfurPct;
    if (sulfur === null) continue;
    column[i] = sulfur <= (eca[i] === 0 ? limits.global : limits.eca) ? 1 : 0;
  }
  return column;
}
