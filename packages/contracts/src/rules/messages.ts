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

/** The bell opens by itself (after 200 ms) when an unread message is flagged notify. */
export function shouldAutoOpenMessages(messages: readonly { notify: boolean; isRead: boolean }[]): boolean {
  return messages.some((m) => m.notify && !m.isRead);
}

/** Unread messages for the bell's badge. */
export function unreadCount(messages: readonly { isRead: boolean }[]): number {
  return messages.filter((m) => !m.isRead).length;
}
