import type { AuditLogEntry } from '@portal/contracts/audit';

/** A detail's id fields, by what they name once the name is known. */
const NAMED_FIELDS: Record<string, string> = {
  facilityId: 'ship',
  organizationId: 'organization',
  userId: 'user',
};

/**
 * An entry's detail as one line, `key: value, …`: an id the API named (a user, a ship, an organization) shows as
 * that name, under what it is ("ship: Nordic Star" for `facilityId`); anything else as stored.
 */
export function auditDetailText(detail: unknown, names: Record<string, string> = {}): string {
  if (detail === null || detail === undefined) return '';
  if (typeof detail !== 'object') return String(detail);
  return Object.entries(detail as Record<string, unknown>)
    .map(([key, value]) => {
      const name = typeof value === 'string' ? names[value] : undefined;
      if (name !== undefined) return `${NAMED_FIELDS[key] ?? key}: ${name}`;
      return `${key}: ${typeof value === 'object' ? JSON.stringify(value) : String(value)}`;
    })
    .join(', ');
}

/** What an entry was done to: the name of the user, ship or organization, else the subject as stored. */
export const auditSubjectText = (entry: Pick<AuditLogEntry, 'subject' | 'subjectName'>): string =>
  entry.subjectName ?? entry.subject ?? '';
