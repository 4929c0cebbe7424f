import { describe, expect, it } from 'vitest';
import {
  canProvision,
  provisionFileName,
  shipImageCheck,
  shipInfoSchema,
  transferSuccessText,
  transferTargets,
  validateNewShip,
  validateShipInfo,
  validateTransferShip,
} from './ship';

describe('new ship', () => {
  it('requires an organization and a name', () => {
    expect(validateNewShip({ organizationId: '', name: '' })).toEqual({
      organizationId: 'Please select an organization',
      name: 'Ship name is required',
    });
    expect(validateNewShip({})).toEqual({
      organizationId: 'Please select an organization',
      name: 'Ship name is required',
    });
    expect(validateNewShip({ organizationId: 'org-1', name: '   ' })).toEqual({
      name: 'Ship name is required',
    });
    expect(validateNewShip({ organizationId: 'org-1', name: 'MV Aurora' })).toEqual({});
  });
});

describe('ship info edit', () => {
  const valid = {
    name: ' MV Aurora ',
    imo: 9876543,
    scrubberSystemType: 'Hybrid',
    numberOfScrubbers: '2',
    totalEffectKW: '12500.5',
    systemManufacturer: '  ',
    startDate: '2024-02-29',
    endDate: '2024-03-01T15:30:00+02:00',
    imageBase64: '',
  };

  it('converts the form values for the server', () => {
    expect(shipInfoSchema.parse(valid)).toEqual({
      name: 'MV Aurora',
      imo: '9876543',
      scrubberSystemType: 'Hybrid',
      numberOfScrubbers: 2,
      totalEffectKW: 12500.5,
      systemManufacturer: null,
      startDate: '2024-02-29T00:00:00.000Z',
      endDate: '2024-03-01T00:00:00.000Z',
      imageBase64: null,
    });
  });

  it('keeps empty numbers, dates and type as empty', () => {
    const parsed = shipInfoSchema.parse({
      name: 'X',
      numberOfScrubbers: '',
      totalEffectKW: null,
      scrubberSystemType: null,
    });
    expect(parsed).toMatchObject({
      numberOfScrubbers: null,
      totalEffectKW: null,
      startDate: null,
      endDate: null,
      scrubberSystemType: '',
    });
  });

  it('keeps a named manufacturer trimmed', () => {
    expect(shipInfoSchema.parse({ name: 'X', systemManufacturer: ' Alfa Laval ' }).systemManufacturer).toBe(
      'Alfa Laval',
    );
  });

  it('says what is wrong per field', () => {
    expect(
      validateShipInfo({
        name: '',
        scrubberSystemType: 'Closed Loop',
        numberOfScrubbers: '1.5',
        totalEffectKW: 'lots',
        startDate: '2023-02-29',
      }),
    ).toEqual({
      name: 'Name is required',
      scrubberSystemType: 'Choose Hybrid, Open Loop or nothing',
      numberOfScrubbers: 'Must be a whole number',
      totalEffectKW: 'Must be a number',
      startDate: 'Must be a valid date',
    });
    expect(validateShipInfo({ name: 'X', numberOfScrubbers: -1 })).toEqual({
      numberOfScrubbers: 'Cannot be negative',
    });
  });

  it('rejects an end date before the start date but allows the same day', () => {
    expect(validateShipInfo({ name: 'X', startDate: '2024-01-02', endDate: '2024-01-01' })).toEqual({
      endDate: 'End date cannot be before start date',
    });
    expect(validateShipInfo({ name: 'X', startDate: '2024-01-02', endDate: '2024-01-02' })).toEqual({});
  });
});

describe('shipImageCheck', () => {
  it('accepts images under 500000 bytes', () => {
    expect(shipImageCheck({ type: 'image/png', size: 499_999 })).toEqual({ ok: true });
    expect(shipImageCheck({ type: 'image/jpeg', size: 1 })).toEqual({ ok: true });
  });

  it('rejects 500000 bytes and more', () => {
    expect(shipImageCheck({ type: 'image/png', size: 500_000 })).toEqual({
      ok: false,
      message: 'Ship image must be less than 500 kB!',
    });
  });

  it('rejects files that are not images', () => {
    expect(shipImageCheck({ type: 'application/pdf', size: 10 }).ok).toBe(false);
    expect(shipImageCheck({ type: '', size: 10 }).ok).toBe(false);
  });
});

describe('transfer and provision', () => {
  const orgs = [
    { id: 'c', name: 'charlie shipping' },
    { id: 'a', name: 'Alpha Lines' },
    { id: 'b', name: 'Bravo Tankers' },
  ];

  it('lists every organization but the owner, by name', () => {
    expect(transferTargets(orgs, 'b').map((o) => o.id)).toEqual(['a', 'c']);
    expect(transferTargets(orgs, 'zzz')).toHaveLength(3);
  });

  it('requires a target', () => {
    expect(validateTransferShip({ targetOrganizationId: '' })).toEqual({
      targetOrganizationId: 'Select the organization to receive the ship',
    });
    expect(validateTransferShip({ targetOrganizationId: 'a' })).toEqual({});
  });

  it('announces the transfer with the organization name', () => {
    expect(transferSuccessText('Alpha Lines')).toBe('Ship was transferred to Alpha Lines');
  });

  it('provisions only a named ship, as a lower-case zip', () => {
    expect(canProvision('MV Aurora')).toBe(true);
    expect(canProvision('  ')).toBe(false);
    expect(canProvision(null)).toBe(false);
    expect(provisionFileName('MV Aurora')).toBe('mv aurora.zip');
  });
});
