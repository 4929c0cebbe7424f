import { describe, expect, it } from 'vitest';
import { defaultImportValidFrom } from '@portal/contracts/datasources';
import { importedValidity } from './import-validity';

const d = (s: string) => new Date(`${s}T00:00:00.000Z`);
const calc = (fieldId: string, validFrom: string | null, validTo: string | null, approved = true) => ({
  fieldId,
  approved,
  validFrom: validFrom ? d(validFrom) : null,
  validTo: validTo ? d(validTo) : null,
});

describe('importedValidity', () => {
  it("moves each field's first approved calculation back to the target's start, keeping the later ones", () => {
    const calculations = [
      calc('so2', '2026-03-01', '2026-05-01'),
      calc('so2', '2026-05-01', null),
      calc('co2', '2026-03-01', null),
      calc('co2', null, null, false),
    ];
    expect(importedValidity(calculations, d('2025-01-01'))).toEqual([
      { validFrom: d('2025-01-01'), validTo: d('2026-05-01') },
      { validFrom: d('2026-05-01'), validTo: null },
      { validFrom: d('2025-01-01'), validTo: null },
      { validFrom: null, validTo: null },
    ]);
  });

  it('leaves out what ended before the start and starts the one in force there at the start', () => {
    const calculations = [calc('so2', '2026-03-01', '2026-05-01'), calc('so2', '2026-05-01', null)];
    expect(importedValidity(calculations, d('2026-06-01'))).toEqual([
      null,
      { validFrom: d('2026-06-01'), validTo: null },
    ]);
  });

  it("starts at the ship's earliest data, or at 2000-01-01 when it has none yet", () => {
    expect(defaultImportValidFrom('2026-02-20T00:00:10Z')).toBe('2026-02-20T00:00:10.000Z');
    expect(defaultImportValidFrom(null)).toBe('2000-01-01T00:00:00.000Z');
  });
});
