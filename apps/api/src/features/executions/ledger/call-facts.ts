import type { PortCall, PortLookup } from '@portal/contracts/rules/carbon';
import type { PortCallFacts } from '../../../storage';
import type { LedgerWindow } from './window';

/**
 * Sub-step "calls to store" (pure): the derived calls arriving inside the window, with their port's key, name and
 * country; open at the start or the end only where the ship's data begins or ends, not where the read did.
 */
export function callFactsOf(
  calls: readonly PortCall[],
  lookup: PortLookup,
  window: LedgerWindow,
  read: LedgerWindow,
  data: { from: number; to: number },
): { kept: PortCall[]; facts: (PortCallFacts & { call: PortCall })[] } {
  const kept = calls.filter((c) => c.arrival >= window.from && c.arrival < window.to);
  const facts = kept.map((call) => {
    const port = lookup.ports[call.portIndex]!;
    return {
      call,
      portKey: port.id,
      locode: port.locode ?? null,
      portName: port.name,
      country: port.country ?? '',
      arrival: call.arrival,
      departure: call.departure,
      gapMs: call.gapMs,
      openStart: call.openStart && read.from <= data.from,
      openEnd: call.openEnd && read.to > data.to,
    };
  });
  return { kept, facts };
}
