import { describe, expect, it } from 'vitest';
import {
  adminMessageLists,
  DEFAULT_MAINTENANCE_TEXT,
  DEFAULT_MESSAGE_TITLE,
  MESSAGE_AUTO_OPEN_DELAY_MS,
  messageTiming,
  messageChangedMaterially,
  shouldAutoOpenMessages,
  unreadCount,
} from './messages';

const msg = (id: string, showFrom: string, showTo: string, isPersonal = false) => ({
  id,
  showFrom,
  showTo,
  isPersonal,
});

describe('messageTiming', () => {
  const m = msg('a', '2024-02-29T10:00:00Z', '2024-03-01T10:00:00Z');

  it('is upcoming before showFrom, active between, past after', () => {
    expect(messageTiming(m, new Date('2024-02-29T09:59:59.999Z'))).toBe('upcoming');
    expect(messageTiming(m, new Date('2024-02-29T10:00:00Z'))).toBe('active');
    expect(messageTiming(m, new Date('2024-03-01T10:00:00Z'))).toBe('active');
    expect(messageTiming(m, new Date('2024-03-01T10:00:00.001Z'))).toBe('past');
  });

  it('compares instants, whatever offset the texts carry', () => {
    const local = msg('b', '2024-01-01T12:00:00+02:00', '2024-01-01T13:00:00+02:00');
    expect(messageTiming(local, new Date('2024-01-01T10:30:00Z'))).toBe('active');
    expect(messageTiming(local, new Date('2024-01-01T11:30:00Z'))).toBe('past');
  });
});

describe('adminMessageLists', () => {
  const now = new Date('2024-06-15T12:00:00Z');
  const lists = adminMessageLists(
    [
      msg('past-old', '2024-01-01T00:00:00Z', '2024-01-31T00:00:00Z'),
      msg('active-personal', '2024-06-01T00:00:00Z', '2024-07-01T00:00:00Z', true),
      msg('upcoming-late', '2024-08-01T00:00:00Z', '2024-08-02T00:00:00Z'),
      msg('active-b', '2024-06-10T00:00:00Z', '2024-06-20T00:00:00Z'),
      msg('past-recent', '2024-06-01T00:00:00Z', '2024-06-14T00:00:00Z'),
      msg('upcoming-soon', '2024-06-16T00:00:00Z', '2024-06-17T00:00:00Z'),
      msg('active-a', '2024-06-01T00:00:00Z', '2024-06-30T00:00:00Z'),
      msg('past-personal', '2024-05-01T00:00:00Z', '2024-05-02T00:00:00Z', true),
    ],
    now,
  );

  it('hides personal messages from the active list only', () => {
    expect(lists.active.map((m) => m.id)).toEqual(['active-a', 'active-b']);
    expect(lists.past.map((m) => m.id)).toContain('past-personal');
  });

  it('orders upcoming soonest first and past most recent first', () => {
    expect(lists.upcoming.map((m) => m.id)).toEqual(['upcoming-soon', 'upcoming-late']);
    expect(lists.past.map((m) => m.id)).toEqual(['past-recent', 'past-personal', 'past-old']);
  });
});

describe('the bell', () => {
  it('opens by itself only for an unread notify message', () => {
    expect(shouldAutoOpenMessages([{ notify: true, isRead: false }])).toBe(true);
    expect(
      shouldAutoOpenMessages([
        { notify: true, isRead: true },
        { notify: false, isRead: false },
      ]),
    ).toBe(false);
    expect(shouldAutoOpenMessages([])).toBe(false);
    expect(MESSAGE_AUTO_OPEN_DELAY_MS).toBe(200);
  });

  it('auto-opens once per message: one already opened for in this session does not open it again', () => {
    const messages = [
      { id: 'a', notify: true, isRead: false },
      { id: 'b', notify: false, isRead: false },
    ];
    expect(shouldAutoOpenMessages(messages, new Set())).toBe(true);
    expect(shouldAutoOpenMessages(messages, new Set(['a']))).toBe(false);
    // A new notify message opens it again.
    expect(
      shouldAutoOpenMessages([...messages, { id: 'c', notify: true, isRead: false }], new Set(['a'])),
    ).toBe(true);
  });

  it('counts unread messages', () => {
    expect(unreadCount([{ isRead: false }, { isRead: true }, { isRead: false }])).toBe(2);
  });

  it('offers a default title and maintenance text', () => {
    expect(DEFAULT_MESSAGE_TITLE).toBe('Maintenance update');
    expect(DEFAULT_MAINTENANCE_TEXT.length).toBeGreaterThan(20);
  });
});

describe('messageChangedMaterially', () => {
  const before = { title: 'Maintenance update', text: 'Down on Friday\nfrom 10:00 UTC.' };

  it('keeps read records for changes of white space only', () => {
    expect(
      messageChangedMaterially(before, {
        title: ' Maintenance  update',
        text: 'Down on Friday from 10:00 UTC. ',
      }),
    ).toBe(false);
  });

  it('resets them when a word of the title or text changed', () => {
    expect(messageChangedMaterially(before, { ...before, text: 'Down on Friday\nfrom 11:00 UTC.' })).toBe(
      true,
    );
    expect(messageChangedMaterially(before, { ...before, title: 'Maintenance' })).toBe(true);
    expect(messageChangedMaterially(before, { ...before, title: null })).toBe(true);
    expect(messageChangedMaterially({ title: null, text: 'x' }, { title: '', text: 'x' })).toBe(false);
  });
});
