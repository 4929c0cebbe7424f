import { updateFacilityDataRange } from '../datasources/range';
import { requestWindowExecution } from '../executions/live';
import type { Services } from '../../services';

/** A ship's source times that new stream samples touched (epoch ms, both ends included). */
export interface TouchedRange {
  from: number;
  to: number;
  /** The ship's data sources whose samples these are. */
  dataSourceIds: string[];
}

/**
 * What follows a batch of stored stream samples of one ship (docs/decisions/0120-live-sparkplug-host.md): its data
 * range, then the incremental, coalesced window execution of each touched data source (features/executions/live.ts,
 * docs/decisions/0122-live-windows.md). The one place the stream hands work to the engine. Called per ship and
 * batch (LIVE_EXECUTION_BATCH_SECONDS), never per message.
 */
export async function onStreamSamplesStored(
  services: Services,
  facilityId: string,
  touched: TouchedRange,
): Promise<void> {
  await updateFacilityDataRange(services.database.db, facilityId);
  for (const dataSourceId of touched.dataSourceIds)
    await requestWindowExecution(services, { facilityId, dataSourceId, from: touched.from, to: touched.to });
}

/** Merges touched ranges per ship (a batch's). */
export function widen(into: Map<string, TouchedRange>, facilityId: string, range: TouchedRange): void {
  const known = into.get(facilityId);
  if (!known) into.set(facilityId, { ...range, dataSourceIds: [...range.dataSourceIds] });
  else {
    known.from = Math.min(known.from, range.from);
    known.to = Math.max(known.to, range.to);
    for (const id of range.dataSourceIds) if (!known.dataSourceIds.includes(id)) known.dataSourceIds.push(id);
  }
}
