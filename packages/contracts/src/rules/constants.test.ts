import { describe, expect, it } from 'vitest';
import {
  CHANNEL_DATA_TYPES,
  DEFAULT_FORMULA_NAMES,
  DEFAULT_ROLE,
  DIALOG_WIDTHS,
  ENVIRONMENT_STAGES,
  LOADING_MESSAGE_THRESHOLDS_MS,
  LOADING_MESSAGES,
  loadingMessage,
  MAINTENANCE_CHECK_INTERVAL_MS,
  MESSAGES,
  NOTIFICATION_HIDE_MS,
  OFFLINE_POLL_INTERVAL_MS,
  PACKAGE_VERSION,
  ROLE_NAMES,
  ROLES,
  SCRUBBER_SYSTEM_TYPES,
  SHIP_IMAGE_MAX_BYTES,
  SHIP_LIST_PAGE_SIZE,
} from './constants';

describe('business constants', () => {
  it('match the spec', () => {
    expect(SHIP_LIST_PAGE_SIZE).toBe(15);
    expect(MAINTENANCE_CHECK_INTERVAL_MS).toBe(5 * 60 * 1000);
    expect(OFFLINE_POLL_INTERVAL_MS).toBe(10_000);
    expect(NOTIFICATION_HIDE_MS).toBe(5_000);
    expect(PACKAGE_VERSION).toBe('1.6.7');
    expect(SHIP_IMAGE_MAX_BYTES).toBe(500_000);
    expect(DIALOG_WIDTHS).toEqual({ normal: 500, wide: 800 });
    expect(Object.values(ENVIRONMENT_STAGES)).toEqual(['Local', 'Dev site', 'Test site', 'Demo site']);
    expect(CHANNEL_DATA_TYPES).toEqual(['Double', 'Integer', 'UTCDateTime', 'Boolean', 'String']);
    expect(SCRUBBER_SYSTEM_TYPES).toEqual(['Hybrid', 'Open Loop', '']);
    expect(DEFAULT_FORMULA_NAMES).toContain('ISECAZONE');
  });

  it('describes every role and defaults new users to User', () => {
    expect(Object.keys(ROLES)).toEqual([...ROLE_NAMES]);
    for (const r of ROLE_NAMES) expect(ROLES[r].displayName && ROLES[r].summary).toBeTruthy();
    expect(DEFAULT_ROLE).toBe('User');
  });
});

describe('MESSAGES', () => {
  it('keeps the spec texts word for word, typo included', () => {
    expect(MESSAGES.DEFAULT_ERROR).toBe('Something went wrong! Please try again');
    expect(MESSAGES.OFFLINE).toBe(
      'There seems to be a connection issue. Please check your internet access. Any unsaved changed will be lost.',
    );
    expect(MESSAGES.EXECUTION_SUCCESS).toBe(
      "Execution successful! It's running in the background, so it might take a little time before the results are visible.",
    );
    expect(MESSAGES.DATA_SOURCES_LOAD_ERROR).toBe(
      'Something went wrong loading datasources. Please contact us so we can fix the issue.',
    );
  });

  it('fills in counts and names', () => {
    expect(MESSAGES.filesImported(3)).toBe('3 file(s) imported');
    expect(MESSAGES.shipTransferred('Nordic Lines')).toBe('Ship was transferred to Nordic Lines');
    expect(MESSAGES.recalculationsQueued(4)).toBe('4 recalculation(s) queued for execution');
    expect(MESSAGES.removeAccessConfirm('MV Aurora')).toBe(
      'Are you sure you want to remove your access to MV Aurora?',
    );
  });

  it('has no empty text', () => {
    for (const value of Object.values(MESSAGES)) {
      if (typeof value === 'string') expect(value.trim()).not.toBe('');
    }
  });
});

describe('loadingMessage', () => {
  it('changes at 5 s, 10 s and 20 s', () => {
    expect(LOADING_MESSAGE_THRESHOLDS_MS).toEqual([5000, 10000, 20000]);
    expect(loadingMessage(0)).toBeNull();
    expect(loadingMessage(4999)).toBeNull();
    expect(loadingMessage(5000)).toBe(LOADING_MESSAGES[0]);
    expect(loadingMessage(9999)).toBe(LOADING_MESSAGES[0]);
    expect(loadingMessage(10000)).toBe(LOADING_MESSAGES[1]);
    expect(loadingMessage(20000)).toBe(LOADING_MESSAGES[2]);
    expect(loadingMessage(120000)).toBe(LOADING_MESSAGES[2]);
    expect(new Set(LOADING_MESSAGES).size).toBe(3);
  });
});
