import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import {
  readLedgerExtent,
  readLedgerSegments,
  replaceLedgerSegments,
  type StoredSegment,
} from '../../storage';
import { readNeighbourCalls, readPortCalls, replacePortCalls, setPortCallsFuel } from '../../storage';
import { replaceVoyages, type VoyageFacts } from '../../storage';
import { CALL_IDENTITY_TOLERANCE_MS, type LedgerDerivation } from './derive-ledger';
import { sumSegments } from './ledger-segments';

/**
 * Step "store port calls and voyages", in the replacing transaction (docs/decisions/0111-carbon-ledger-engine.md):
 * the window's pieces and calls replace the stored ones (a call keeps its id at the same port and about the same
 * arrival), each call's fuel at berth is the sum of its stay's pieces, and every voyage that touches the window (from
 * the last call before it to the first after it) is summed again from its pieces. Only what differs is written: a
 * rerun over unchanged data writes nothing. Returns the rows written.
 */
export async function storeLedger(
  trx: Transaction<Database>,
  derivation: LedgerDerivation | null,
): Promise<number> {
  if (!derivation) return 0;
  const { facilityId, from, to } = derivation;
  let writes = await replaceLedgerSegments(trx, facilityId, from, to, derivation.segments);
  const { writes: callWrites } = await replacePortCalls(
    trx,
    facilityId,
    from,
    to,
    derivation.calls,
    CALL_IDENTITY_TOLERANCE_MS,
  );
  writes += callWrites;

  // Fuel at berth: the sums of each call's stay.
  const calls = await readPortCalls(trx, facilityId, { from, to });
  const inWindow = calls.filter((c) => c.arrival >= from && c.arrival < to);
  writes += await setPortCallsFuel(
    trx,
    inWindow.map((call) => {
      const totals = sumSegments(
        derivation.segments.filter(
          (s) => s.kind === 'stay' && s.start >= call.arrival && s.start < call.departure,
        ),
      );
      return { call, fuel: totals.fuel, hoursWithoutFuelData: totals.hoursWithoutFuelData };
    }),
  );

  // Voyages from the last call before the window to the first after it, each the sum of its pieces.
  const extent = await readLedgerExtent(trx, facilityId);
  if (!extent) return writes;
  const { before, after } = await readNeighbourCalls(trx, facilityId, from, to);
  const spanFrom = before ? before.departure : extent.from;
  const spanTo = after ? after.arrival : extent.to;
  const chain = [...(before ? [before] : []), ...inWindow, ...(after ? [after] : [])];
  const pieces = spanTo > spanFrom ? await readLedgerSegments(trx, facilityId, spanFrom, spanTo) : [];
  const voyages: VoyageFacts[] = [];
  const voyage = (fromCall: (typeof chain)[number] | null, toCall: (typeof chain)[number] | null) => {
    const departure = fromCall ? fromCall.departure : extent.from;
    const arrival = toCall ? toCall.arrival : extent.to;
    if (arrival <= departure) return;
    const own: StoredSegment[] = pieces.filter(
      (s) => s.kind === 'voyage' && s.start >= departure && s.start < arrival,
    );
    if (own.length === 0) return;
    const totals = sumSegments(own);
    voyages.push({
      fromCallId: fromCall?.id ?? null,
      toCallId: toCall?.id ?? null,
      departure,
      arrival,
      distanceNm: totals.distanceNm,
      hoursUnderWay: totals.hoursUnderWay,
      hoursNotUnderWay: totals.hoursNotUnderWay,
      hoursWithoutPosition: totals.hoursWithoutPosition,
      hoursWithoutFuelData: totals.hoursWithoutFuelData,
      co2g: totals.co2g,
      fuel: totals.fuel,
    });
  };
  if (!before) voyage(null, chain[0] ?? null);
  // Without a call after the window, the last voyage runs on to the end of the data.
  for (let i = 0; i < chain.length - (after ? 1 : 0); i++) voyage(chain[i]!, chain[i + 1] ?? null);
  writes += await replaceVoyages(trx, facilityId, spanFrom, spanTo + 1, voyages);
  return writes;
}
