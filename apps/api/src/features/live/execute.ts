import { updateFacilityDataRange } from '../datasources/range';
import { requestWindowExecution } from '../executions/live';
import type { Services } from '../../services';

/** The source times new stream samples of a data source touched (epoch ms, both ends included). */
export interface TouchedRange {
  from: number;
  to: number;
}

/** A ship's touched ranges, per data source id. */
export type TouchedRanges = Map<string, TouchedRange>;

/**
 * What follows a batch of stored stream samples of one ship (docs/decisions/0120-live-sparkplug-host.md): its data
 * range, then the incremental, coalesced window execution of each touched data source over the minutes it touched
 * (features/executions/live.ts, docs/decisions/0122-live-windows.md): another data source's minutes do not widen
 * it. The one place the stream hands work to the engine. Called per ship and batch (LIVE_EXECUTION_BATCH_SECONDS),
 * never per message.
 */
export async function onStreamSamplesStored(
  services: Services,
  facilityId: string,
  touched: TouchedRanges,
): Promise<void> {
  await updateFacilityDataRange(services.database.db, facilityId);
  for (const [dataSourceId, { from, to }] of touched)
    await requestWindowExecution(services, { facilityId, dataSourceId, from, to });
}

/** Merges a ship's touched ranges into a batch's, per data source. */
export function widen(into: Map<string, TouchedRanges>, facilityId: string, ranges: TouchedRanges): void {
  let ship = into.get(facilityId);
  if (!ship) into.set(facilityId, (ship = new Map()));
  for (const [dataSourceId, range] of ranges) {
    const known = ship.get(dataSourceId);
    if (!known) ship.set(dataSourceId, { ...range });
    else {
      known.from = Math.min(known.from, range.from);
      known.to = Math.max(known.to, range.to);
    }
  }
}
