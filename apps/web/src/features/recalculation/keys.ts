import type { RecalculationKind } from '@portal/contracts/execution';

export const recalculationKeys = {
  all: ['recalculations'] as const,
  kind: (kind: RecalculationKind) => [...recalculationKeys.all, kind] as const,
  list: (kind: RecalculationKind, facilityId?: string) =>
    [...recalculationKeys.kind(kind), facilityId ?? null] as const,
};
