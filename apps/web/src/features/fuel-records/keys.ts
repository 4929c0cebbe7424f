/**
 * Query keys of a ship's fuel records: its bunker delivery notes, tank soundings, the reconciliation of a period,
 * and the port list's searches of the note dialog. Only this feature fetches them. A note or a sounding changed
 * refreshes the ship's `records` (the lists and every reconciliation).
 */
export const fuelRecordKeys = {
  all: ['fuel-records'] as const,
  records: (facilityId: string) => [...fuelRecordKeys.all, 'ship', facilityId] as const,
  bdns: (facilityId: string, days: { from: string; to: string } | null = null) =>
    [...fuelRecordKeys.records(facilityId), 'bunker-notes', days] as const,
  soundings: (facilityId: string, days: { from: string; to: string } | null = null) =>
    [...fuelRecordKeys.records(facilityId), 'tank-soundings', days] as const,
  reconciliation: (facilityId: string, period: { from: string; to: string }) =>
    [...fuelRecordKeys.records(facilityId), 'reconciliation', period] as const,
  ports: (search: string) => [...fuelRecordKeys.all, 'ports', search] as const,
};
