import { type Role } from '../auth';
import { NO_DATA, NOT_SPECIFIED, UNKNOWN } from './dates';
import { DELETE_MESSAGE_CONFIRMATION } from './messages';
import {
  NO_PENDING_RECALCULATIONS,
  recalculationsCancelledText,
  recalculationsQueuedText,
  recalculationsRemovedText,
} from './recalculation';

/** Business constants and user-facing texts of both spec parts (sections 8 and 9). */

export const SHIP_LIST_PAGE_SIZE = 15;
export const MAINTENANCE_CHECK_INTERVAL_MS = 300_000;
export const OFFLINE_POLL_INTERVAL_MS = 10_000;
export const LOADING_MESSAGE_THRESHOLDS_MS = [5_000, 10_000, 20_000] as const;
export const NOTIFICATION_HIDE_MS = 5_000;
// The same bindings as the package's auth and version modules, so both barrels can be exported together.
export { PACKAGE_VERSION } from '../version';
export { ROLE_NAMES, type Role } from '../auth';
export const ERROR_TRACE_SAMPLE_RATE = 0.3;
export const SHIP_IMAGE_MAX_BYTES = 500_000;
export const LINK_KEY_LENGTH = 7;
export const PASSWORD_MIN_LENGTH = 8;
export const GENERATED_PASSWORD_LENGTH = 8;
export const CALCULATION_HISTORY_MIN_VERSIONS = 2;
export const EDITOR_TAB_SIZE = 2;
export const DIALOG_WIDTHS = { normal: 500, wide: 800 } as const;
export const STUB_SESSION_COOKIE_MINUTES = 30;

export const ENVIRONMENT_STAGES = {
  local: 'Local',
  dev: 'Dev site',
  test: 'Test site',
  demo: 'Demo site',
} as const;
export type EnvironmentStage = keyof typeof ENVIRONMENT_STAGES;

export const CHANNEL_DATA_TYPES = ['Double', 'Integer', 'UTCDateTime', 'Boolean', 'String'] as const;
export type ChannelDataType = (typeof CHANNEL_DATA_TYPES)[number];

/** The empty string is a real choice: system type not given. */
export const SCRUBBER_SYSTEM_TYPES = ['Hybrid', 'Open Loop', ''] as const;
export type ScrubberSystemType = (typeof SCRUBBER_SYSTEM_TYPES)[number];

/** Names the formula editor's autocomplete always offers. */
export const DEFAULT_FORMULA_NAMES = [
  'TARGETTIMESTAMP',
  'Facility_IMO',
  'Facility_NumberOfScrubbers',
  'Facility_ScrubberSystemType',
  'Facility_TotalEffectKW',
  'ISECAZONE',
  'ISNODISCHARGEZONE',
] as const;

/** For the role radio group of the user dialog (display names and summaries from the spec's role descriptions). */
export const ROLES: Record<Role, { name: Role; displayName: string; summary: string }> = {
  SystemAdmin: {
    name: 'SystemAdmin',
    displayName: 'System administrator',
    summary: 'Can do everything to any organization',
  },
  UserAdmin: {
    name: 'UserAdmin',
    displayName: 'Administrator',
    summary: 'Manages users and ships for the organization',
  },
  User: { name: 'User', displayName: 'Regular user', summary: 'Views and uploads files to assigned ships' },
  Verifier: {
    name: 'Verifier',
    displayName: 'Verifier',
    summary: "Reads the organization's carbon ledger of the years invited and records the verification",
  },
};
export const DEFAULT_ROLE: Role = 'User';

/**
 * Every user-facing text of the spec's error catalogues and success notices, word for word
 * (typos included). Functions take the values the text carries.
 */
export const MESSAGES = {
  // part 1 section 8
  DEFAULT_ERROR: 'Something went wrong! Please try again',
  DEFAULT_SUCCESS: 'Changes were saved',
  FILES_DELETED: 'Files were deleted successfully!',
  CONNECTION_ESTABLISHED: 'Connection established',
  OFFLINE:
    'There seems to be a connection issue. Please check your internet access. Any unsaved changed will be lost.',
  EXECUTION_SUCCESS:
    "Execution successful! It's running in the background, so it might take a little time before the results are visible.",
  filesImported: (n: number) => `${n} file(s) imported`,
  NO_DATA,
  NOT_SPECIFIED,
  UNKNOWN,
  // The spec describes the notice without its wording; ours.
  MAINTENANCE: 'The portal is currently unavailable. Please check back later.',
  /** The stub login's failure begins with this. */
  USER_NOT_FOUND: 'User not found',
  PROCESSING: 'Processing',
  ALSO_DELETE_ASSOCIATED_DATA: 'Also delete associated data',

  // part 2 section 8
  SAVE_ERROR: 'An error occurred when saving',
  VALIDATION_SUCCESS: 'Validation successful',
  TEST_SUCCESS: 'Test successful',
  CALCULATION_CREATED: 'Calculation created successfully',
  DATA_SOURCES_LOAD_ERROR:
    'Something went wrong loading datasources. Please contact us so we can fix the issue.',
  SAMPLE_UPLOAD_ERROR: 'Error uploading file!',
  // The spec only says the data will be permanently deleted; ours.
  DELETE_DATA_SOURCE_WARNING: 'The data source and all its data will be permanently deleted.',
  CALCULATIONS_NOT_FOUND: 'Could not get calculations for report field',
  shipTransferred: (organizationName: string) => `Ship was transferred to ${organizationName}`,
  PSDU_BUILD_ERROR: 'An error occurred compiling a PSDU package for this ship. Please try again.',
  recalculationsRemoved: recalculationsRemovedText,
  recalculationsCancelled: recalculationsCancelledText,
  recalculationsQueued: recalculationsQueuedText,
  USER_CREATED: 'User created successfully',
  USER_UPDATED: 'User updated successfully',
  USER_DELETED: 'User deleted successfully',
  MESSAGE_CREATE_ERROR: 'Error creating message',
  MESSAGE_DELETE_ERROR: 'Error deleting message. Please try again.',
  MESSAGE_MARK_READ_ERROR: 'Error marking message as read.',
  MESSAGE_HISTORY_ERROR: 'Error getting message history',
  SHIP_NOT_FOUND: 'Ship not found',

  // part 2 section 2 (confirmations and empty states)
  NO_PENDING_RECALCULATIONS,
  NO_SHIPS_IN_ORGANIZATION: 'No ships in the organization',
  removeAccessConfirm: (shipName: string) => `Are you sure you want to remove your access to ${shipName}?`,
  DELETE_USER_CONFIRM: 'Delete user?',
  DELETE_MESSAGE_CONFIRMATION,
  noResultsMatching: (text: string) => `No results matching "${text}". Press enter to create a new one`,
  NO_DATE: 'No date',
  NOT_AVAILABLE: 'N/A',
} as const;

/** Shown while the application starts: after 5 s, 10 s and 20 s (our wording; the spec gives none). */
export const LOADING_MESSAGES = [
  'Still loading...',
  'This is taking longer than usual...',
  'Still working on it. If this goes on, please check your internet connection.',
] as const;

/** The loading text for the time waited so far; null before 5 s. */
export function loadingMessage(elapsedMs: number): string | null {
  let text: string | null = null;
  LOADING_MESSAGE_THRESHOLDS_MS.forEach((threshold, i) => {
    const message = LOADING_MESSAGES[i];
    if (elapsedMs >= threshold && message !== undefined) text = message;
  });
  return text;
}
