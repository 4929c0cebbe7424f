import { describe, expect, it } from 'vitest';
import {
  generatePassword,
  newPasswordSchema,
  newPasswordWithConfirmSchema,
  PASSWORD_MESSAGES,
  passwordChecklist,
  randomString,
  validateNewPassword,
} from './password';

const firstMessage = (pw: unknown) => {
  const r = newPasswordSchema.safeParse(pw);
  return r.success ? null : r.error.issues[0]?.message;
};

describe('password policy', () => {
  it.each([
    ['', 'A new password is required'],
    [undefined, 'A new password is required'],
    ['abc1', 'Must be minimum 8 characters'],
    ['abcdefg1'.slice(0, 7), 'Must be minimum 8 characters'],
    ['abcdefgh', 'Password must contain at least 1 number'],
    ['12345678', 'Password must contain at least 1 letter'],
    ['abcd 1234', 'No spaces allowed'],
    ['abcd\t1234', 'No spaces allowed'],
  ])('%j -> %s', (pw, message) => {
    expect(firstMessage(pw)).toBe(message);
  });

  it('accepts exactly 8 characters with a letter and a number', () => {
    expect(firstMessage('abcdefg1')).toBeNull();
    expect(firstMessage('Ærø12345')).toBeNull();
  });

  it('requires the confirmation and a match', () => {
    expect(validateNewPassword({ password: 'abcdefg1', confirmPassword: '' })).toEqual({
      confirmPassword: 'Please confirm by writing your new password again',
    });
    expect(validateNewPassword({ password: 'abcdefg1', confirmPassword: 'abcdefg2' })).toEqual({
      confirmPassword: 'Passwords must match',
    });
    expect(validateNewPassword({ password: 'abcdefg1', confirmPassword: 'abcdefg1' })).toEqual({});
  });

  it('reports both fields at once', () => {
    expect(validateNewPassword({ password: 'short', confirmPassword: 'other' })).toEqual({
      password: 'Must be minimum 8 characters',
      confirmPassword: 'Passwords must match',
    });
  });

  it('parses to the values', () => {
    expect(
      newPasswordWithConfirmSchema.parse({ password: 'abcdefg1', confirmPassword: 'abcdefg1' }).password,
    ).toBe('abcdefg1');
  });

  it('keeps the spec messages', () => {
    expect(PASSWORD_MESSAGES).toEqual({
      required: 'A new password is required',
      minLength: 'Must be minimum 8 characters',
      number: 'Password must contain at least 1 number',
      letter: 'Password must contain at least 1 letter',
      noSpaces: 'No spaces allowed',
      confirmRequired: 'Please confirm by writing your new password again',
      mismatch: 'Passwords must match',
    });
  });
});

describe('passwordChecklist', () => {
  it('ticks each rule as it is met', () => {
    expect(passwordChecklist('')).toEqual({ minLength: false, number: false, letter: false });
    expect(passwordChecklist('a')).toEqual({ minLength: false, number: false, letter: true });
    expect(passwordChecklist('1234567')).toEqual({ minLength: false, number: true, letter: false });
    expect(passwordChecklist('1234567x')).toEqual({ minLength: true, number: true, letter: true });
  });
});

describe('generatePassword', () => {
  it('gives 8 characters that pass the policy, different each time', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const pw = generatePassword();
      expect(pw).toHaveLength(8);
      expect(firstMessage(pw)).toBeNull();
      seen.add(pw);
    }
    expect(seen.size).toBeGreaterThan(190);
  });

  it('draws only from the alphabet', () => {
    expect(randomString(500, 'ab')).toMatch(/^[ab]{500}$/);
  });
});
