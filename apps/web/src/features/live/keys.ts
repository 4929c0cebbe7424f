/** Query keys of the live readout: only this feature fetches it. */
export const liveKeys = {
  all: ['live'] as const,
  readout: (facilityId: string) => [...liveKeys.all, 'readout', facilityId] as const,
};
