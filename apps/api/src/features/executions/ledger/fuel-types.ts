import type { Kysely } from 'kysely';
import { FUEL_TYPES, type FuelType, type FuelTypeSource } from '@portal/contracts/rules/carbon';
import type { Database } from '../../../db/schema';
import { lowerBound } from '../../../storage';
import { DAY_MS } from '../ledger-segments';
import type { RawRead } from './on-targets';
import type { FlowFuelSource } from './types';
import type { LedgerWindow } from './window';

/** How far back a fuel type channel is read for the value in use at the window's start. */
export const FUEL_TYPE_LOOKBACK_MS = DAY_MS;

export interface ChangeOver {
  at: number;
  fuelType: FuelType;
}

/**
 * Sub-step "recorded fuel types": the fuel change-overs of the ship's record book with a fuel type (body.fuelType,
 * a code of FUEL_TYPES), leaving out the entries a later correction corrected: the `change-overs` fuel type source.
 */
export async function recordedFuelTypes(db: Kysely<Database>, facilityId: string): Promise<ChangeOver[]> {
  const entries = await db
    .selectFrom('record_book_entries')
    .select(['id', 'kind', 'occurred_on', 'corrects_id', 'body'])
    .where('facility_id', '=', facilityId)
    .where('kind', 'in', ['fuel-change-over', 'correction'])
    .orderBy('sequence')
    .execute();
  const corrected = new Set(entries.map((e) => e.corrects_id).filter((id) => id !== null));
  const changeOvers: ChangeOver[] = [];
  for (const e of entries) {
    const fuelType = (e.body as { fuelType?: unknown } | null)?.fuelType;
    if (corrected.has(e.id) || !FUEL_TYPES.includes(fuelType as FuelType)) continue;
    changeOvers.push({ at: new Date(e.occurred_on).getTime(), fuelType: fuelType as FuelType });
  }
  return changeOvers.sort((a, b) => a.at - b.at);
}

/**
 * Sub-step "fuel type codes" (pure): a fuel type channel's logged codes in [from, to), without its missing values
 * (a missing value is no change of fuel: the last logged code holds until the next).
 */
export function fuelTypeCodes(
  raw: { timestamps: Float64Array; column: Float64Array } | undefined,
  from: number,
  to: number,
): FuelTypeSource {
  const at: number[] = [];
  const codes: number[] = [];
  if (raw) {
    const lo = lowerBound(raw.timestamps, from);
    const hi = lowerBound(raw.timestamps, to);
    for (let i = lo; i < hi; i++)
      if (!Number.isNaN(raw.column[i]!)) {
        at.push(raw.timestamps[i]!);
        codes.push(raw.column[i]!);
      }
  }
  return { kind: 'series', timestamps: at, values: codes };
}

/**
 * Sub-step "fuel type of a flow": a flow's fuel type source as the rules take it: fixed, none known (no
 * change-overs: UNKNOWN), the record book's change-overs (read once), or a channel's codes from
 * FUEL_TYPE_LOOKBACK_MS before the window.
 */
export function fuelTypeReader(
  window: LedgerWindow,
  io: { readRaw: RawRead; changeOvers: () => Promise<ChangeOver[]> },
): (source: FlowFuelSource) => Promise<FuelTypeSource> {
  let changeOvers: ChangeOver[] | undefined;
  return async (source) => {
    switch (source.kind) {
      case 'fixed':
        return { kind: 'fixed', fuelType: source.fuelType };
      case 'unknown':
        return { kind: 'change-overs', changeOvers: [] };
      case 'change-overs':
        changeOvers ??= await io.changeOvers();
        return { kind: 'change-overs', changeOvers };
      case 'channel': {
        const from = window.from - FUEL_TYPE_LOOKBACK_MS;
        return fuelTypeCodes(await io.readRaw(source.channel, from, window.to - 1), from, window.to);
      }
    }
  };
}
