import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { unsubscribeLinks, unsubscribeToken, verifyUnsubscribeToken } from './unsubscribe';

const key = randomBytes(32);
const user = '5b3f0c7e-8d21-4a55-9f0e-2c1d3b4a5e6f';

describe('unsubscribe tokens', () => {
  it('name the user they were made for, under this key only', () => {
    const token = unsubscribeToken(key, user);
    expect(verifyUnsubscribeToken(key, token)).toBe(user);
    expect(verifyUnsubscribeToken(randomBytes(32), token)).toBeNull();
  });

  it('refuse a token changed in any part', () => {
    const token = unsubscribeToken(key, user);
    const [, signature] = token.split('.');
    const other = '5b3f0c7e-8d21-4a55-9f0e-2c1d3b4a5e60';
    expect(verifyUnsubscribeToken(key, `${other}.${signature}`)).toBeNull();
    expect(verifyUnsubscribeToken(key, `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`)).toBeNull();
    expect(verifyUnsubscribeToken(key, `${token}.x`)).toBeNull();
    expect(verifyUnsubscribeToken(key, user)).toBeNull();
    expect(verifyUnsubscribeToken(key, `not-a-user.${signature}`)).toBeNull();
    expect(verifyUnsubscribeToken(key, '')).toBeNull();
  });

  it('make the page link and the one-click address of the portal', () => {
    const links = unsubscribeLinks('https://portal.example/', 'u.s+/=');
    expect(links).toEqual({
      page: 'https://portal.example/unsubscribe?token=u.s%2B%2F%3D',
      oneClick: 'https://portal.example/api/alerts/unsubscribe?token=u.s%2B%2F%3D',
    });
  });
});
