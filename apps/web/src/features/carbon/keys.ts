/** Query keys of the carbon ledger (only this feature fetches it): a ship's voyages, fuel, CII and DCS report, a voyage, the fleet's CII. */
export const carbonKeys = {
  all: ['carbon'] as const,
  ship: (facilityId: string) => [...carbonKeys.all, 'ship', facilityId] as const,
  voyages: (facilityId: string, from: string, to: string) =>
    [...carbonKeys.ship(facilityId), 'voyages', from, to] as const,
  portCalls: (facilityId: string, from: string, to: string) =>
    [...carbonKeys.ship(facilityId), 'port-calls', from, to] as const,
  fuel: (facilityId: string, from: string, to: string) =>
    [...carbonKeys.ship(facilityId), 'fuel', from, to] as const,
  cii: (facilityId: string, year: number) => [...carbonKeys.ship(facilityId), 'cii', year] as const,
  dcs: (facilityId: string, year: number) => [...carbonKeys.ship(facilityId), 'dcs', year] as const,
  voyage: (voyageId: string) => [...carbonKeys.all, 'voyage', voyageId] as const,
  fleetCii: (year: number) => [...carbonKeys.all, 'fleet-cii', year] as const,
};
