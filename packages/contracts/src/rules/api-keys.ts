import { API_KEY_SCOPE_LABELS, type ApiKey } from '../api-keys';
import { formatDateTime, toDate } from './dates';

export const API_KEY_TEXTS = {
  never: 'Never',
  notUsed: 'Not used yet',
  copyNow:
    'Copy the key now: it will not be shown again. Anyone with it can act for your organization within its scopes.',
  revokeText: 'Integrations that use it are refused at once. This cannot be undone.',
  none: 'No API keys yet.',
} as const;

export const revokeApiKeyTitle = (name: string) => `Revoke the API key ${name}?`;

/** One key as the organization's API keys table shows it. */
export interface ApiKeyRow {
  scopes: string;
  created: string;
  expires: string;
  expired: boolean;
  lastUsed: string;
}

/**
 * The table's texts of a key: its scopes by their labels, when and by whom it was made, when it expires (Never, or
 * Expired with the time once past: a key stays listed until it is revoked) and its last use (noted at most once a
 * minute). Times are UTC, in the spec's YYYY.MM.DD HH:mm.
 */
export function apiKeyRow(key: ApiKey, now: number): ApiKeyRow {
  const expires = toDate(key.expiresOn);
  const expired = expires !== null && expires.getTime() <= now;
  return {
    scopes: key.scopes.map((s) => API_KEY_SCOPE_LABELS[s]).join(', '),
    created: key.createdBy
      ? `${formatDateTime(key.createdOn)} by ${key.createdBy}`
      : formatDateTime(key.createdOn),
    expires: expires ? `${expired ? 'Expired ' : ''}${formatDateTime(expires)}` : API_KEY_TEXTS.never,
    expired,
    lastUsed: key.lastUsedOn ? formatDateTime(key.lastUsedOn) : API_KEY_TEXTS.notUsed,
  };
}
