import { get } from 'sparkplug-payload';
import type { UMetric, UPayload } from 'sparkplug-payload/lib/sparkplugbpayload';

/** The Sparkplug B payload codec of the contract (`sparkplug-payload`, namespace spBv1.0). */
const codec = get('spBv1.0')!;

export type { UMetric, UPayload };

export const decodePayload = (bytes: Uint8Array): UPayload => codec.decodePayload(bytes);
export const encodePayload = (payload: UPayload): Uint8Array => codec.encodePayload(payload);

/** A protobuf integer (a number or a Long) as a number; null when absent or not one. */
export function toNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'bigint') return Number(value);
  if (value && typeof value === 'object' && 'toNumber' in value && typeof value.toNumber === 'function')
    return (value as { toNumber(): number }).toNumber();
  return null;
}

/** A metric's value as a sample: numbers as they are, booleans 1/0, anything else (text, null) missing. */
export function sampleValue(metric: UMetric): number | null {
  if (metric.isNull) return null;
  const v = metric.value;
  if (typeof v === 'boolean') return v ? 1 : 0;
  const n = toNumber(v);
  return n;
}

/** A metric's String property (`localId`, `unit`), or null. */
export function stringProperty(metric: UMetric, name: string): string | null {
  const property = metric.properties?.[name];
  return property && typeof property.value === 'string' ? property.value : null;
}
