import type { EventInputs } from './types';

/** Test inputs of the events' sub-steps: a minute a target from T0, compliant and at sea. */
export const T0 = Date.UTC(2026, 5, 1);
export const MIN = 60_000;

export function minutes(n: number): EventInputs {
  const f = (v: number) => new Float64Array(n).fill(v);
  return {
    targets: Float64Array.from({ length: n }, (_, i) => T0 + i * MIN),
    required: f(1),
    running: f(1),
    ratio: f(10),
    limit: f(21.7),
    latitude: f(50),
    longitude: f(-10),
    eca: new Uint8Array(n).fill(0),
  };
}

export const fill = (column: Float64Array | Uint8Array, from: number, to: number, value: number) => {
  for (let i = from; i < to; i++) column[i] = value;
};

/** An event's times in minutes from T0. */
export const span = (e: { start: number; end: number }) => [(e.start - T0) / MIN, (e.end - T0) / MIN];
