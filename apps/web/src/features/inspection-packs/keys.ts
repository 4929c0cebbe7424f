/** Query keys of the inspection packs (only this feature fetches them): a ship's packs and its monthly schedule. */
export const inspectionPackKeys = {
  all: ['inspection-packs'] as const,
  ship: (facilityId: string) => [...inspectionPackKeys.all, facilityId] as const,
  list: (facilityId: string) => [...inspectionPackKeys.ship(facilityId), 'list'] as const,
  schedule: (facilityId: string) => [...inspectionPackKeys.ship(facilityId), 'schedule'] as const,
};
