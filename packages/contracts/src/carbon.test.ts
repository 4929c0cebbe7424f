import { describe, expect, it } from 'vitest';
import { bdnInputSchema, flowChannelMappingSchema, portInputSchema, voyageCargoSchema } from './carbon';

describe('carbon ledger contracts', () => {
  const bdn = {
    deliveredAt: '2026-03-03T14:00:00Z',
    portId: 'NLRTM',
    portName: null,
    fuelType: 'HFO',
    massTonnes: 800,
    sulfurPercent: 2.7,
    lcvMjPerKg: 40.2,
    densityKgM3: 985,
    bdnNumber: 'RTM-2026-0312',
  };

  it('takes a bunker delivery note with its mass, sulfur, LCV and density', () => {
    expect(bdnInputSchema.parse(bdn)).toEqual(bdn);
  });

  it('refuses a note the ledger cannot use, saying why', () => {
    const issue = (patch: object) => bdnInputSchema.safeParse({ ...bdn, ...patch }).error?.issues[0]?.message;
    expect(issue({ massTonnes: 0 })).toBe('Mass must be above 0 t');
    expect(issue({ sulfurPercent: 6 })).toBe('Sulfur is at most 5 % m/m');
    expect(issue({ fuelType: 'DIESEL' })).toBeDefined();
    expect(issue({ deliveredAt: '3 March' })).toBe('Must be a UTC date and time (ISO 8601)');
  });

  it("takes an organization's port as a radius or a polygon, with a UN/LOCODE when it has one", () => {
    const port = {
      name: 'Maasvlakte terminals',
      locode: 'NLRTM',
      country: 'NL',
      latitude: 51.96,
      longitude: 4.03,
      radiusNm: 3,
      polygon: null,
      memberships: [{ membership: 'EU_EEA', from: '1958-01-01', to: null }],
    };
    expect(portInputSchema.safeParse(port).success).toBe(true);
    expect(portInputSchema.safeParse({ ...port, locode: 'NL-RTM' }).success).toBe(false);
    expect(
      portInputSchema.safeParse({
        ...port,
        polygon: [
          [4, 51.9],
          [4.1, 51.9],
        ],
      }).error?.issues[0]?.message,
    ).toBe('An area needs at least 3 points');
  });

  it("maps a flow channel's consumer and where its fuel type comes from", () => {
    expect(
      flowChannelMappingSchema.safeParse({
        channelId: 'c1',
        consumer: 'AUX_ENGINE',
        fuelTypeSource: { kind: 'channel', fuelTypeChannelId: 'c2' },
        lngEngine: null,
      }).success,
    ).toBe(true);
    expect(
      voyageCargoSchema.safeParse({ laden: true, cargoTonnes: -1, teu: null, source: 'ENTERED' }).success,
    ).toBe(false);
  });
});
