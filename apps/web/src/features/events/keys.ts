import type { EventListQuery } from '@portal/contracts/events';

/**
 * Query keys of the compliance events and the record book. Only this feature fetches them (the dashboards and the
 * ship list use its hooks through index.ts). A change to an event refreshes `lists`, its `detail` and `report`, and
 * the ship's `recordBook`; its `inputs` (the measurement values around it) do not change with what people add.
 */
export const eventKeys = {
  all: ['events'] as const,
  lists: () => [...eventKeys.all, 'list'] as const,
  list: (query: EventListQuery) => [...eventKeys.lists(), query] as const,
  detail: (id: string) => [...eventKeys.all, 'detail', id] as const,
  report: (id: string) => [...eventKeys.all, 'report', id] as const,
  inputs: (id: string) => [...eventKeys.all, 'inputs', id] as const,
  recordBooks: () => [...eventKeys.all, 'record-book'] as const,
  recordBook: (facilityId: string, range: { from?: string; to?: string }) =>
    [...eventKeys.recordBooks(), facilityId, range] as const,
  rules: (organizationId: string) => [...eventKeys.all, 'rules', organizationId] as const,
};
