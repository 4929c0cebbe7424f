import { describe, expect, it } from 'vitest';
import { bdnInputSchema, flowChannelMappingSchema, voyageCargoSchema } from './carbon';
import { TEXT_MESSAGES } from './forms/text';

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
    // Hostile text in the names a note carries, refused as every name is (forms/text.ts).
    expect(issue({ bdnNumber: 'RTM-\u202e2130-6202' })).toBe(TEXT_MESSAGES.bidi);
    expect(issue({ portName: 'Rotter\u0000dam' })).toBe(TEXT_MESSAGES.nul);
    expect(issue({ portName: 'Port \ud800' })).toBe(TEXT_MESSAGES.loneSurrogate);
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
