import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { lowerBound } from '../../storage';
import { ledgerSegments } from './ledger-segments';
import { callFactsOf } from './ledger/call-facts';
import { flowChannels } from './ledger/flows';
import { fuelTypeReader, recordedFuelTypes } from './ledger/fuel-types';
import { RAW_HOLD_SECONDS } from './ledger/on-targets';
import { fieldReader, rawReader } from './ledger/readers';
import { trackAndCalls, TRACK_MARGIN_MS } from './ledger/track';
import type { LedgerConfig, LedgerDerivation, LedgerPortsPort, LedgerRequest } from './ledger/types';
import { ledgerWindow } from './ledger/window';

/**
 * Step "port calls and voyages" (issue 31; docs/decisions/0111-carbon-ledger-engine.md): from the ship's LATITUDE,
 * LONGITUDE and speed over ground (a SHIP_SPEED field or channel) and its fuel flows, the port calls (the rules of
 * packages/contracts/src/rules/carbon, port-calls.ts) and the ledger's pieces of time (stays and voyages cut at UTC
 * midnights, ledger-segments.ts) of a window around the executed period; the store step (store-ledger.ts) replaces
 * what the window held and sums the voyages and the stays at berth from the pieces.
 *
 * The window is the executed days and one day on each side, widened to whole port calls: a stored call that reaches
 * over an edge, or a derived one, pulls the edge to its day. So every call that changes lies inside it, and the pieces
 * of every day a changed call touches are derived again. Positions are read two days further on each side, so the
 * track legs across the window's edges are whole.
 *
 * Its sub-steps, in ledger/: the configuration (load-config.ts reads, config.ts builds), the window (window.ts),
 * the readers of fields and raw channels (readers.ts, on-targets.ts), the track and its calls (track.ts), the calls
 * to store (call-facts.ts), the fuel types (fuel-types.ts) and flows (flows.ts); then the pieces (ledger-segments.ts).
 */

export { LEDGER_FIELDS } from './ledger/config';
export { loadLedgerConfig } from './ledger/load-config';
export {
  CALL_IDENTITY_TOLERANCE_MS,
  NO_LEDGER_PORTS,
  type FlowFuelSource,
  type LedgerConfig,
  type LedgerDerivation,
  type LedgerFlow,
  type LedgerPortsPort,
  type LedgerRequest,
} from './ledger/types';

/**
 * The step: null when the ship has no position fields or the execution recomputed none of its inputs. The window is
 * replaced whole: days of it where the ship has no data (deleted) lose their pieces and calls.
 */
export async function deriveLedger(
  db: Kysely<Database>,
  config: LedgerConfig | null,
  request: LedgerRequest,
  ports: LedgerPortsPort,
): Promise<LedgerDerivation | null> {
  const latitudeFieldId = config?.latitudeFieldId;
  const longitudeFieldId = config?.longitudeFieldId;
  if (!config || !latitudeFieldId || !longitudeFieldId) return null;
  const { recomputed } = request;
  if (recomputed !== 'all' && ![...config.inputFieldIds].some((id) => recomputed.has(id))) return null;
  const { facilityId, dataFrom, dataTo } = config;
  const start = await ledgerWindow(db, facilityId, request);
  // Without data (all of it deleted) the window keeps nothing.
  if (dataFrom === null || dataTo === null) return { facilityId, ...start, calls: [], segments: [] };
  const read = fieldReader(db, facilityId, request);
  const lookup = await ports.portsFor(db, config.organizationId);
  const reading = { from: start.from - TRACK_MARGIN_MS, to: start.to + TRACK_MARGIN_MS };
  const rawRefs = [
    ...(config.speed?.kind === 'channel' ? [config.speed.channel] : []),
    ...config.flows.flatMap((f) => [
      ...(f.read.kind === 'channel' ? [f.read.channel] : []),
      ...(f.fuel.kind === 'channel' ? [f.fuel.channel] : []),
    ]),
  ];
  const readRaw = rawReader(db, facilityId, rawRefs, () => ({
    from: reading.from - RAW_HOLD_SECONDS * 1000,
    to: reading.to,
  }));
  const found = await trackAndCalls({ ...config, latitudeFieldId, longitudeFieldId }, start, reading, {
    read,
    readRaw,
    lookup,
  });
  if (!found) return null;
  const { window, track, targets } = found;
  const calls = callFactsOf(found.calls, lookup, window, found.read, { from: dataFrom, to: dataTo });
  const windowTargets = targets.subarray(lowerBound(targets, window.from), lowerBound(targets, window.to));
  const fuelType = fuelTypeReader(window, { readRaw, changeOvers: () => recordedFuelTypes(db, facilityId) });
  const { channels, scrubber } = await flowChannels(config, window, windowTargets, {
    read,
    readRaw,
    fuelType,
  });
  const segments = ledgerSegments({
    track,
    calls: calls.kept,
    channels,
    scrubber,
    ...window,
    dataFrom,
    dataTo,
  });
  return { facilityId, ...window, calls: calls.facts, segments };
}
