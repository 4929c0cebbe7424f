import { describe, expect, it } from 'vitest';
import {
  findForbiddenText,
  identifierProblem,
  identifierText,
  isInvisibleOnly,
  nameProblem,
  nameText,
  optionalNameText,
  TEXT_MESSAGES as M,
  textProblem,
  userText,
} from './text';

const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? null : result.error!.issues[0]!.message;

describe('any text', () => {
  it('refuses the NUL character wherever it is', () => {
    for (const text of ['\u0000', 'a\u0000', '\u0000b', 'Ship\u0000Name'])
      expect(textProblem(text)).toBe(M.nul);
  });

  it('refuses a lone surrogate, high or low, at the start, in the middle or at the end', () => {
    for (const text of ['\uD800', 'a\uD83D', '\uDE00b', 'a\uDC00\uD800b', '\uD83D\uD83D'])
      expect(textProblem(text), JSON.stringify(text)).toBe(M.loneSurrogate);
  });

  it('accepts surrogate pairs (emoji, rare CJK), line breaks, tabs, markup and entities as they are', () => {
    for (const text of [
      '🚢 ship',
      '𠀀',
      'line 1\nline 2\r\n\ttab',
      '<foo val="bar" />',
      '&lt;script&gt;',
      '',
    ])
      expect(textProblem(text), JSON.stringify(text)).toBeNull();
  });

  it('userText keeps the text exactly as written, spaces included', () => {
    expect(userText().parse('  <b>bold</b> &amp;  ')).toBe('  <b>bold</b> &amp;  ');
    expect(firstMessage(userText().safeParse('a\u0000'))).toBe(M.nul);
  });
});

describe('names', () => {
  it('refuses bidi embeddings, overrides and isolates', () => {
    for (const c of [
      '\u202A',
      '\u202B',
      '\u202C',
      '\u202D',
      '\u202E',
      '\u2066',
      '\u2067',
      '\u2068',
      '\u2069',
    ])
      expect(nameProblem(`${c}test${c}`)).toBe(M.bidi);
  });

  it('refuses control characters, line breaks and tabs included', () => {
    for (const c of ['\u0001', '\u0007', '\n', '\r', '\t', '\u007F', '\u0085', '\u009B', '\u2028', '\u2029'])
      expect(nameProblem(`a${c}b`), JSON.stringify(c)).toBe(M.control);
  });

  it('refuses names made only of invisible characters', () => {
    for (const text of [
      '\u200B',
      '\u200B\u200C\u200D',
      '\uFEFF',
      '\u2060',
      '\u00AD',
      '\u3164',
      '\u2800',
      '\u200E\u200F',
      ' \u00A0\u3000',
    ])
      expect(isInvisibleOnly(text), JSON.stringify(text)).toBe(true);
    expect(nameProblem('\u200B')).toBe(M.invisible);
    expect(nameProblem('\u200B\u200D')).toBe(M.invisible);
  });

  it('accepts names in any script, with emoji, joiners inside and right-to-left marks', () => {
    for (const text of [
      'Nordic Star',
      'Ævar Ødegård',
      'Σκάφος',
      'سفينة',
      'שׁמש',
      'कप्तान',
      'می‌خواهم',
      '👩‍✈️ Crew',
      "o'brien%_\\",
    ])
      expect(nameProblem(text), text).toBeNull();
  });

  it('nameText trims, requires, and gives the first problem as its message', () => {
    const schema = nameText('Name is required');
    expect(schema.parse('  Nordic Star  ')).toBe('Nordic Star');
    expect(firstMessage(schema.safeParse('   '))).toBe('Name is required');
    expect(firstMessage(schema.safeParse(undefined))).toBe('Name is required');
    expect(firstMessage(schema.safeParse('\u200B'))).toBe(M.invisible);
    expect(firstMessage(schema.safeParse('\u202Atest\u202A'))).toBe(M.bidi);
    expect(firstMessage(schema.safeParse('a\u0000'))).toBe(M.nul);
    expect(firstMessage(schema.safeParse('a\uD800'))).toBe(M.loneSurrogate);
    expect(firstMessage(schema.safeParse('x'.repeat(201)))).toBe('Cannot be longer than 200 characters');
  });

  it('optionalNameText allows an empty name and checks a given one', () => {
    expect(optionalNameText().parse('  ')).toBe('');
    expect(optionalNameText().parse(' Notice ')).toBe('Notice');
    expect(firstMessage(optionalNameText().safeParse('\u2067x'))).toBe(M.bidi);
  });
});

describe('findForbiddenText (the backstop over a whole request)', () => {
  it('finds NUL and lone surrogates in nested values and in keys, with the path', () => {
    expect(findForbiddenText({ a: [{ b: 'ok' }, { c: 'x\u0000' }] })).toEqual({
      path: 'a.1.c',
      message: M.nul,
    });
    expect(findForbiddenText({ 'k\uD800': 1 })).toEqual({ path: '', message: M.loneSurrogate });
    expect(findForbiddenText('\uDC00')).toEqual({ path: '', message: M.loneSurrogate });
  });

  it('passes everything else, numbers, nulls and buffers included', () => {
    expect(
      findForbiddenText({ a: 1, b: null, c: true, d: ['🚢', '<x/>'], e: new Uint8Array([0]) }),
    ).toBeNull();
    expect(findForbiddenText(undefined)).toBeNull();
  });
});

describe('identifiers (usernames)', () => {
  it('refuses an invisible character inside, which a name allows', () => {
    for (const hidden of [
      '\u200b',
      '\u200c',
      '\u200d',
      '\u2060',
      '\ufeff',
      '\u200e',
      '\u00ad',
      '\u00a0',
      '\u3000',
    ])
      expect(identifierProblem(`north${hidden}.admin`)).toBe(M.hidden);
    expect(nameProblem('north\u200b.admin')).toBeNull();
  });

  it('accepts letters of every script, digits, dots, dashes and a plain space', () => {
    for (const name of ['north.admin', 'łukasz-wójcik', 'Γιώργος', 'ольга_иванова', '王小明', 'anna smith'])
      expect(identifierProblem(name)).toBeNull();
  });

  it('identifierText trims, and refuses as names are refused', () => {
    const schema = identifierText('Username is required');
    expect(schema.parse('  north.anna ')).toBe('north.anna');
    expect(schema.safeParse('a\u202eb').error?.issues[0]?.message).toBe(M.bidi);
    expect(schema.safeParse('a\u200bb').error?.issues[0]?.message).toBe(M.hidden);
  });
});
