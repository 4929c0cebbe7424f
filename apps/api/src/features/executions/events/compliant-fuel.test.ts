import { describe, expect, it } from 'vitest';
import { compliantFuelColumn } from './compliant-fuel';

describe('compliant fuel', () => {
  it("is 1 where the last recorded change-over put the ship on a fuel within the area's limit, 0 otherwise", () => {
    const targets = Float64Array.from([0, 1, 2, 3, 4, 5]);
    const eca = Uint8Array.from([1, 1, 0, 0, 255, 1]);
    const column = compliantFuelColumn(
      targets,
      eca,
      [
        { at: 1, sulfurPct: 0.1 },
        { at: 3, sulfurPct: 0.5 },
      ],
      { eca: 0.1, global: 0.5 },
    );
    // Before the first change-over the record book says nothing (0); an unknown zone takes the ECA's limit.
    expect([...column]).toEqual([0, 1, 1, 1, 0, 0]);
  });
});
