import { describe, expect, it } from 'vitest';
import { shipInfoSchema, validateShipInfo } from './forms/ship';
import { SHIP_PARTICULARS_MESSAGES as M, SHIP_TYPE_NAMES, SHIP_TYPES } from './ship-particulars';

const info = { name: 'MV Aurora' };

describe('ship particulars', () => {
  it('has the 13 ship types of MEPC.353(78) Table 1, each with its name', () => {
    expect(SHIP_TYPES).toHaveLength(13);
    expect(SHIP_TYPES.map((t) => SHIP_TYPE_NAMES[t])).toContain('Ro-ro cargo ship (vehicle carrier)');
    expect(new Set(Object.values(SHIP_TYPE_NAMES)).size).toBe(13);
  });

  it('takes a known type, a positive deadweight in tonnes and a whole gross tonnage, as typed in a form', () => {
    expect(
      shipInfoSchema.parse({
        ...info,
        shipType: 'BULK_CARRIER',
        deadweightTonnes: ' 58000 ',
        grossTonnage: '32800',
      }),
    ).toMatchObject({ shipType: 'BULK_CARRIER', deadweightTonnes: 58_000, grossTonnage: 32_800 });
    expect(shipInfoSchema.parse({ ...info, deadweightTonnes: 12_345.6 }).deadweightTonnes).toBe(12_345.6);
  });

  it('leaves out what is not given (kept as it is) and clears what is empty', () => {
    const parsed = shipInfoSchema.parse(info);
    expect(parsed.shipType).toBeUndefined();
    expect(parsed.deadweightTonnes).toBeUndefined();
    expect(
      shipInfoSchema.parse({ ...info, shipType: '', deadweightTonnes: '', grossTonnage: null }),
    ).toMatchObject({
      shipType: null,
      deadweightTonnes: null,
      grossTonnage: null,
    });
  });

  it('says plainly what is wrong', () => {
    expect(
      validateShipInfo({ ...info, shipType: 'Bulker', deadweightTonnes: 0, grossTonnage: 1234.5 }),
    ).toEqual({
      shipType: M.shipType,
      deadweightTonnes: 'Deadweight must be more than 0 t',
      grossTonnage: 'Gross tonnage is a whole number',
    });
    expect(validateShipInfo({ ...info, deadweightTonnes: 'a lot', grossTonnage: -3 })).toEqual({
      deadweightTonnes: 'Deadweight must be a number of tonnes',
      grossTonnage: 'Gross tonnage must be more than 0',
    });
    expect(validateShipInfo({ ...info, deadweightTonnes: 58_000_000, grossTonnage: 400_000 })).toEqual({
      deadweightTonnes: 'Deadweight must be at most 600,000 t',
      grossTonnage: 'Gross tonnage must be at most 300,000',
    });
  });
});
