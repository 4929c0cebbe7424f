import { FUEL_TYPES, type FuelType } from './fuels';

/**
 * Reconciliation of a reporting period (DOMAIN.md: flow-meter totals against bunker delivery notes and tank
 * soundings; a verifier flags a misstatement above 5 %). Per fuel type, the fuel the bunker notes and the soundings
 * account for is ROB at the start + bunkered in the period - ROB at the end (the EU MRV's and the IMO DCS's "BDN
 * and periodic stocktakes of fuel tanks" method); the flow meters' total is compared with it:
 * difference % = (flow meters - BDN and soundings) / (BDN and soundings) x 100, flagged when its magnitude is above
 * 5 %. The BDN side is the reference because it is the documentary evidence a verifier holds
 * (docs/decisions/0107-carbon-ledger-rules.md).
 */

/** A misstatement above this (%, in magnitude) is flagged (the verifiers' materiality level). */
export const RECONCILIATION_THRESHOLD_PERCENT = 5;

export interface BunkerDeliveryNote {
  /** UTC epoch ms of the delivery. */
  at: number;
  fuelType: FuelType;
  /** Tonnes delivered. */
  massTonnes: number;
}

export interface TankSounding {
  /** UTC epoch ms of the sounding. */
  at: number;
  fuelType: FuelType;
  /** Tonnes remaining on board. */
  robTonnes: number;
}

export interface ReconciliationRow {
  fuelType: FuelType;
  flowMeterTonnes: number;
  bunkeredTonnes: number;
  robStartTonnes: number | null;
  robEndTonnes: number | null;
  /** ROB at the start + bunkered - ROB at the end; null without both soundings. */
  bdnTonnes: number | null;
  /** (flow meters - BDN and soundings) / (BDN and soundings) x 100; null when there is nothing to compare. */
  differencePercent: number | null;
  flagged: boolean;
  /** What is missing to compare (a sounding at the start or the end of the period). */
  missing: ('robStart' | 'robEnd')[];
}

export interface ReconciliationInput {
  /** The period, UTC epoch ms, `to` exclusive. */
  from: number;
  to: number;
  /** Tonnes per fuel type from the flow meters over the period. */
  flowMeterTonnes: Partial<Record<FuelType, number>>;
  bdns: readonly BunkerDeliveryNote[];
  soundings: readonly TankSounding[];
  /** How far from the period's ends a sounding may lie and still count as its start or end ROB (default 24 h). */
  soundingToleranceMs?: number;
}

function differencePercent(measured: number, reference: number | null): number | null {
  if (reference === null) return null;
  if (reference === 0) return measured === 0 ? 0 : null;
  return ((measured - reference) / reference) * 100;
}

/** The sounding closest to `at` within the tolerance. */
function soundingNear(soundings: readonly TankSounding[], fuelType: FuelType, at: number, tolerance: number) {
  let best: TankSounding | null = null;
  for (const s of soundings) {
    if (s.fuelType !== fuelType || Math.abs(s.at - at) > tolerance) continue;
    if (!best || Math.abs(s.at - at) < Math.abs(best.at - at)) best = s;
  }
  return best;
}

export interface Reconciliation {
  rows: ReconciliationRow[];
  /** All fuel types together (only those with both soundings). */
  total: {
    flowMeterTonnes: number;
    bdnTonnes: number | null;
    differencePercent: number | null;
    flagged: boolean;
  };
}

export function reconcile(input: ReconciliationInput): Reconciliation {
  const tolerance = input.soundingToleranceMs ?? 24 * 3_600_000;
  const rows: ReconciliationRow[] = [];
  for (const fuelType of FUEL_TYPES) {
    const flow = input.flowMeterTonnes[fuelType] ?? 0;
    const bdns = input.bdns.filter((b) => b.fuelType === fuelType && b.at >= input.from && b.at < input.to);
    const start = soundingNear(input.soundings, fuelType, input.from, tolerance);
    const end = soundingNear(input.soundings, fuelType, input.to, tolerance);
    if (flow === 0 && bdns.length === 0 && !start && !end) continue;
    const bunkered = bdns.reduce((sum, b) => sum + b.massTonnes, 0);
    const missing: ReconciliationRow['missing'] = [];
    if (!start) missing.push('robStart');
    if (!end) missing.push('robEnd');
    const bdnTonnes = start && end ? start.robTonnes + bunkered - end.robTonnes : null;
    const diff = differencePercent(flow, bdnTonnes);
    rows.push({
      fuelType,
      flowMeterTonnes: flow,
      bunkeredTonnes: bunkered,
      robStartTonnes: start?.robTonnes ?? null,
      robEndTonnes: end?.robTonnes ?? null,
      bdnTonnes,
      differencePercent: diff,
      flagged: diff !== null && Math.abs(diff) > RECONCILIATION_THRESHOLD_PERCENT,
      missing,
    });
  }
  const compared = rows.filter((r) => r.bdnTonnes !== null);
  const flowAll = compared.reduce((sum, r) => sum + r.flowMeterTonnes, 0);
  const bdnAll = compared.length ? compared.reduce((sum, r) => sum + r.bdnTonnes!, 0) : null;
  const diffAll = differencePercent(flowAll, bdnAll);
  return {
    rows,
    total: {
      flowMeterTonnes: flowAll,
      bdnTonnes: bdnAll,
      differencePercent: diffAll,
      flagged: diffAll !== null && Math.abs(diffAll) > RECONCILIATION_THRESHOLD_PERCENT,
    },
  };
}
