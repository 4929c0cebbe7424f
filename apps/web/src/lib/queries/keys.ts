/**
 * Query keys of the resources that more than one feature reads or refreshes (a key read and refreshed by one
 * feature only is in that feature's api file). Each factory's `all` is the prefix of every key it makes, so
 * `invalidateQueries({ queryKey: x.all })` refreshes everything of the resource.
 */

export const facilityKeys = {
  all: ['facilities'] as const,
  /** GET facilities with its query parameters. */
  list: (params: object) => [...facilityKeys.all, params] as const,
  /** GET facilities/{id}. */
  detail: (id: string) => [...facilityKeys.all, id, 'facility'] as const,
  hasSecondaryOrganizations: (id: string) =>
    [...facilityKeys.all, id, 'has-secondary-organizations'] as const,
  uploadCredentials: (id: string) => [...facilityKeys.all, id, 'upload-credentials'] as const,
};

/** Organizations and their users (a user list is an organization's: organizations/{id}/users). */
export const organizationKeys = {
  all: ['organizations'] as const,
  /** GET organizations (the key is the prefix of every organization key). */
  list: () => organizationKeys.all,
  /** GET organizations, reduced to the choices of a new ship. */
  choices: () => [...organizationKeys.all, 'choices'] as const,
  detail: (id: string) => [...organizationKeys.all, id, 'detail'] as const,
  users: (id: string) => [...organizationKeys.all, id, 'users'] as const,
};

export const messageKeys = {
  all: ['messages'] as const,
  /** The active messages of the bell. */
  active: () => [...messageKeys.all, { isActive: true }] as const,
  /** Every message, for the message administration. */
  list: () => [...messageKeys.all, 'all'] as const,
};

export const calculationKeys = {
  all: ['calculations'] as const,
  measurementField: (facilityId: string, measurementFieldId: string) =>
    [...calculationKeys.all, 'measurement-field', facilityId, measurementFieldId] as const,
  reportField: (reportId: string, reportFieldId: string) =>
    [...calculationKeys.all, 'report-field', reportId, reportFieldId] as const,
};

export const measurementFieldKeys = {
  all: ['measurement-fields'] as const,
  /** The catalogue with one ship's status per field. */
  facility: (facilityId: string) => [...measurementFieldKeys.all, 'facility', facilityId] as const,
  detail: (id: string, facilityId: string) =>
    [...measurementFieldKeys.all, 'detail', id, facilityId] as const,
};

/** Report definitions (GET algorithm/reports and algorithm/reports/{id}); report data has its own keys. */
export const reportKeys = {
  all: ['algorithm-reports'] as const,
  list: () => reportKeys.all,
  detail: (id: string) => [...reportKeys.all, id] as const,
};

export const executionKeys = {
  all: ['executions'] as const,
  status: () => [...executionKeys.all, 'status'] as const,
  detail: (id: string) => [...executionKeys.all, 'detail', id] as const,
};

export const profileKeys = {
  all: ['profile'] as const,
  detail: (subject: string) => [...profileKeys.all, subject] as const,
};

export const versionKeys = {
  all: ['version'] as const,
};

/** Data health: a ship's channels over a period, and the ship list's badges (uploads refresh both). */
export const dataHealthKeys = {
  all: ['data-health'] as const,
  facility: (facilityId: string, period: { from?: string; to?: string }) =>
    [...dataHealthKeys.all, 'facility', facilityId, period] as const,
  summaries: () => [...dataHealthKeys.all, 'summaries'] as const,
  thresholds: (organizationId: string) => [...dataHealthKeys.all, 'thresholds', organizationId] as const,
};
