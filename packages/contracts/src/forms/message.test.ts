import { describe, expect, it } from 'vitest';
import { isDraftEmpty, messageFormSchema, validateMessageForm } from './message';

const valid = {
  title: ' Maintenance update ',
  text: 'The portal is down\nfrom 10:00 to 11:00.',
  showFrom: '2024-12-31T22:00:00Z',
  showTo: '2025-01-01T02:00:00+01:00',
};

describe('message form', () => {
  it('parses to UTC instants and keeps line breaks', () => {
    expect(messageFormSchema.parse(valid)).toEqual({
      title: 'Maintenance update',
      text: 'The portal is down\nfrom 10:00 to 11:00.',
      showFrom: '2024-12-31T22:00:00.000Z',
      showTo: '2025-01-01T01:00:00.000Z',
      notify: false,
    });
  });

  it('leaves the title optional', () => {
    expect(validateMessageForm({ ...valid, title: undefined })).toEqual({});
  });

  it('requires the text and both times', () => {
    expect(validateMessageForm({ text: '  ', showFrom: '', showTo: null })).toEqual({
      text: 'Message is required',
      showFrom: 'Specify when the message is shown from',
      showTo: 'Specify when the message is shown to',
    });
  });

  it('requires show from before show to', () => {
    const reversed = { ...valid, showFrom: '2025-01-02T00:00:00Z', showTo: '2025-01-01T00:00:00Z' };
    expect(validateMessageForm(reversed)).toEqual({
      showFrom: 'Must be before "Show to"',
      showTo: 'Must be after "Show from"',
    });
    const same = { ...valid, showFrom: '2025-01-01T00:00:00Z', showTo: '2025-01-01T01:00:00+01:00' };
    expect(validateMessageForm(same)).toEqual({
      showFrom: 'Must be before "Show to"',
      showTo: 'Must be after "Show from"',
    });
  });

  it('rejects a time that is not a time', () => {
    expect(validateMessageForm({ ...valid, showTo: 'tomorrow' })).toEqual({ showTo: 'Must be a valid date' });
  });
});

describe('isDraftEmpty', () => {
  it('is true only when nothing was entered', () => {
    expect(isDraftEmpty({ title: '', text: ' ', showFrom: null, showTo: '' })).toBe(true);
    expect(isDraftEmpty({ text: 'x' })).toBe(false);
    expect(isDraftEmpty({ showFrom: '2024-01-01T00:00:00Z' })).toBe(false);
  });
});
