import { describe, expect, it } from 'vitest';
import {
  LOGIN_REDIRECT_WINDOW_MS,
  loginAddress,
  mayRedirectToLogin,
  parseLoginRedirects,
  portalAddressElsewhere,
  recordLoginRedirect,
  safeReturnPath,
} from './access';

const ship = '1c6058dc-b296-4c92-b2cf-f30254d3947e';

describe('sign-in redirects: at most once per path per minute', () => {
  const t0 = Date.UTC(2026, 10, 23, 12, 0, 0);

  it('the first redirect of a path goes', () => {
    expect(mayRedirectToLogin({}, '/report-config', t0)).toBe(true);
  });

  it('the same path again within a minute does not, after a minute it does', () => {
    const history = recordLoginRedirect({}, '/ship/1', t0);
    expect(mayRedirectToLogin(history, '/ship/1', t0 + 1_300)).toBe(false);
    expect(mayRedirectToLogin(history, '/ship/1', t0 + LOGIN_REDIRECT_WINDOW_MS - 1)).toBe(false);
    expect(mayRedirectToLogin(history, '/ship/1', t0 + LOGIN_REDIRECT_WINDOW_MS)).toBe(true);
  });

  it('another path is not held back', () => {
    const history = recordLoginRedirect({}, '/ship/1', t0);
    expect(mayRedirectToLogin(history, '/ship/2', t0 + 1_000)).toBe(true);
  });

  it('a clock set back does not hold a path forever', () => {
    const history = recordLoginRedirect({}, '/ship/1', t0);
    expect(mayRedirectToLogin(history, '/ship/1', t0 - 5_000)).toBe(true);
  });

  it('the stored history forgets entries older than the window', () => {
    let history = recordLoginRedirect({}, '/a', t0);
    history = recordLoginRedirect(history, '/b', t0 + LOGIN_REDIRECT_WINDOW_MS + 1);
    expect(Object.keys(history)).toEqual(['/b']);
  });

  it('a malformed stored history counts as empty', () => {
    expect(parseLoginRedirects(null)).toEqual({});
    expect(parseLoginRedirects('not json')).toEqual({});
    expect(parseLoginRedirects('[1,2]')).toEqual({});
    expect(parseLoginRedirects('{"/a":"x","/b":5}')).toEqual({ '/b': 5 });
  });
});

describe('where sign-in returns to', () => {
  const origin = 'https://portal.example.com';

  it('is a path of the portal, with its query and hash', () => {
    expect(safeReturnPath('/events?status=open&type=SO2', origin)).toBe('/events?status=open&type=SO2');
    expect(safeReturnPath(`/ship/${ship}`, origin)).toBe(`/ship/${ship}`);
    expect(safeReturnPath('/help#upload', origin)).toBe('/help#upload');
    expect(safeReturnPath('/', origin)).toBe('/');
  });

  it('never leads to another site (no open redirect)', () => {
    for (const attempt of [
      'https://evil.example/',
      'http://portal.example.com.evil.example/',
      '//evil.example/path',
      '/\\evil.example',
      '\\\\evil.example',
      '/\t/evil.example',
      '/\n/evil.example',
      'javascript:alert(1)',
      'data:text/html,hi',
      'evil.example',
      ' /events',
      '',
    ])
      expect(safeReturnPath(attempt, origin), JSON.stringify(attempt)).toBeNull();
    expect(safeReturnPath(undefined, origin)).toBeNull();
    expect(safeReturnPath({ returnTo: '/' }, origin)).toBeNull();
    expect(safeReturnPath(`/${'a'.repeat(2_000)}`, origin)).toBeNull();
  });

  it('is never a sign-in page or the server’s own pages (a loop)', () => {
    for (const path of [
      '/login',
      '/login?returnTo=/x',
      '/logoff',
      '/oidc/auth',
      '/interaction/abc',
      '/api/version',
    ])
      expect(safeReturnPath(path, origin), path).toBeNull();
    expect(safeReturnPath('/loginhelp', origin)).toBe('/loginhelp');
  });

  it("is carried in sign-in's address, and only when it leads somewhere else than My fleet", () => {
    expect(loginAddress('/events?status=open', origin)).toBe('/login?returnTo=%2Fevents%3Fstatus%3Dopen');
    expect(loginAddress('/', origin)).toBe('/login');
    expect(loginAddress('https://evil.example/', origin)).toBe('/login');
  });
});

describe('the portal opened away from its public address', () => {
  it('is fine at the public address', () => {
    expect(portalAddressElsewhere('http://localhost:8080/ship/1', 'http://localhost:8080')).toBeNull();
    expect(portalAddressElsewhere('https://portal.example/x', 'https://portal.example/')).toBeNull();
  });

  it('names the same page at the public address', () => {
    expect(portalAddressElsewhere('http://127.0.0.1:8080/ship/1?x=1', 'http://localhost:8080')).toBe(
      'http://localhost:8080/ship/1?x=1',
    );
    expect(portalAddressElsewhere('http://10.0.0.5/', 'https://portal.example')).toBe(
      'https://portal.example/',
    );
  });

  it("sends the sign-in pages' addresses to the portal's home", () => {
    expect(portalAddressElsewhere('http://127.0.0.1:8080/login?code=x', 'http://localhost:8080')).toBe(
      'http://localhost:8080/',
    );
  });

  it('says nothing without a public address or with a malformed one', () => {
    expect(portalAddressElsewhere('http://127.0.0.1/', undefined)).toBeNull();
    expect(portalAddressElsewhere('http://127.0.0.1/', 'not a url')).toBeNull();
  });
});
