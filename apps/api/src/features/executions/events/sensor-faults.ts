import type { EventPosition, EventRules } from '@portal/contracts/events';
import type { DerivedEvent } from './types';

/** A flagged interval of a compliance channel (data health's `flagChannel`). */
export interface ChannelFault {
  channel: string;
  kind: string;
  /** First and last sample of the interval (stale: the last value before and the next after, or the data's end). */
  from: number;
  to: number;
  value: number | null;
}

/**
 * Sub-step "sensor faults": sensor fault events from the data health flags of the compliance channels: one per channel and flagged interval,
 * from its first sample to one step after its last (a stale interval: from the last value to the next), ongoing
 * when it reaches the ship's latest data. Informational for the Circ.883 classes: a sensor fault is a monitoring
 * failure, reported through the emission events it hides, not classified itself (docs/decisions/0080).
 */
export function sensorFaultEvents(
  faults: readonly ChannelFault[],
  positionAt: (t: number) => EventPosition | null,
  rules: EventRules,
  dataEnd: number | null,
): DerivedEvent[] {
  const stepMs = rules.stepSeconds * 1000;
  return faults.map((f) => {
    const end = f.kind === 'stale' ? f.to : f.to + stepMs;
    return {
      type: 'sensor-fault',
      start: f.from,
      end,
      ongoing: dataEnd !== null && f.to >= dataEnd,
      worstValue: f.value,
      limit: null,
      startPosition: positionAt(f.from),
      endPosition: positionAt(f.to),
      classification: null,
      reportRequired: false,
      channel: f.channel,
      fault: f.kind,
    };
  });
}
