import { toDate, type DateInput } from './dates';

/** Broadcast messages: timing, the admin lists and the bell (spec part 1 sections 2 and 4, part 2 sections 2, 4 and 9). */

export type MessageTiming = 'active' | 'upcoming' | 'past';

export interface TimedMessage {
  showFrom: DateInput;
  showTo: DateInput;
}

export const MESSAGE_AUTO_OPEN_DELAY_MS = 200;
export const DEFAULT_MESSAGE_TITLE = 'Maintenance update';
// The spec names a default maintenance text without giving its wording; this is ours.
export const DEFAULT_MAINTENANCE_TEXT =
  'The portal will be unavailable for a short while for scheduled maintenance.\n' +
  'Please save your work before then. We apologise for the inconvenience.';
export const DELETE_MESSAGE_CONFIRMATION =
  'Users will no longer be able to see it and records of who has seen it will be deleted as well.';

/** Active while now is between showFrom and showTo (both inclusive); upcoming before, past after. */
export function messageTiming(message: TimedMessage, now: Date): MessageTiming {
  const from = toDate(message.showFrom)?.getTime() ?? -Infinity;
  const to = toDate(message.showTo)?.getTime() ?? Infinity;
  const t = now.getTime();
  if (t < from) return 'upcoming';
  if (t > to) return 'past';
  return 'active';
}

const time = (d: DateInput) => toDate(d)?.getTime() ?? 0;

/**
 * The three lists of the messages admin screen. Personal messages are left out of the active list only.
 * Active and upcoming by showFrom (soonest first); past by showTo (most recent first).
 */
export function adminMessageLists<T extends TimedMessage & { isPersonal?: boolean | null }>(
  messages: readonly T[],
  now: Date,
): { active: T[]; upcoming: T[]; past: T[] } {
  const lists = { active: [] as T[], upcoming: [] as T[], past: [] as T[] };
  for (const m of messages) {
    const timing = messageTiming(m, now);
    if (timing === 'active' && m.isPersonal) continue;
    lists[timing].push(m);
  }
  lists.active.sort((a, b) => time(a.showFrom) - time(b.showFrom));
  lists.upcoming.sort((a, b) => time(a.showFrom) - time(b.showFrom));
  lists.past.sort((a, b) => time(b.showTo) - time(a.showTo));
  return lists;
}

/**
 * The bell opens by itself (after 200 ms) when an unread message is flagged notify, once per message per user and
 * session: `opened` holds the ids it has already opened for in this session.
 */
export function shouldAutoOpenMessages(
  messages: readonly { id?: string; notify: boolean; isRead: boolean }[],
  opened: ReadonlySet<string> = new Set(),
): boolean {
  return autoOpenMessageIds(messages, opened).length > 0;
}

/** The unread notify messages the bell has not opened for yet in this session. */
export function autoOpenMessageIds(
  messages: readonly { id?: string; notify: boolean; isRead: boolean }[],
  opened: ReadonlySet<string>,
): string[] {
  return messages
    .filter((m) => m.notify && !m.isRead && !(m.id !== undefined && opened.has(m.id)))
    .map((m) => m.id ?? '');
}

/** Unread messages for the bell's badge. */
export function unreadCount(messages: readonly { isRead: boolean }[]): number {
  return messages.filter((m) => !m.isRead).length;
}

const normalizedWords = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();

/**
 * Whether an edit changes what readers have read (docs/decisions/0065-message-edit.md): the title or the text
 * differs in anything but white space (line breaks, doubled spaces, spaces at the ends). Then the read records go
 * and the message is new to everyone; a changed period, notify flag or white space keeps them.
 */
export function messageChangedMaterially(
  before: { title: string | null; text: string },
  after: { title: string | null; text: string },
): boolean {
  return (
    normalizedWords(before.title) !== normalizedWords(after.title) ||
    normalizedWords(before.text) !== normalizedWords(after.text)
  );
}
