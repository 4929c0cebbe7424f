import { updateFacilityDataRange } from '../datasources/range';
import { queueStreamExecution } from '../executions/upload';
import type { Services } from '../../services';

/** A ship's source times that new stream samples touched (epoch ms, both ends included). */
export interface TouchedRange {
  from: number;
  to: number;
}

/**
 * What follows a batch of stored stream samples of one ship (docs/decisions/0120-live-sparkplug-host.md): its data
 * range, then the execution of the touched range through the upload's own entry point (features/executions/upload.ts,
 * which joins the ship's waiting execution). The one place the stream hands work to the engine: pointing it at the
 * incremental, coalesced window execution (issue 33's other part) changes this function only. Called per ship and
 * batch (LIVE_EXECUTION_BATCH_SECONDS), never per message.
 */
export async function onStreamSamplesStored(
  services: Services,
  facilityId: string,
  touched: TouchedRange,
): Promise<void> {
  await updateFacilityDataRange(services.database.db, facilityId);
  await queueStreamExecution(services, {
    facilityId,
    period: touched,
    requestedBy: null,
    actor: { userId: null, organizationId: null },
  });
}

/** Merges touched ranges per ship (a batch's). */
export function widen(into: Map<string, TouchedRange>, facilityId: string, range: TouchedRange): void {
  const known = into.get(facilityId);
  if (!known) into.set(facilityId, { ...range });
  else {
    known.from = Math.min(known.from, range.from);
    known.to = Math.max(known.to, range.to);
  }
}
