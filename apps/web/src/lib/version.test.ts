import { describe, expect, it } from 'vitest';
import { isChunkLoadError, isNewVersion, shouldReloadForVersion } from './version';

const v1 = { version: '1.6.7', build: 'abc' };
const v2 = { version: '1.6.7', build: 'def' };

describe('the loaded and the served version', () => {
  it('a different build or version is new; unknown on either side is not', () => {
    expect(isNewVersion(v1, v2)).toBe(true);
    expect(isNewVersion(v1, { version: '1.6.8', build: 'abc' })).toBe(true);
    expect(isNewVersion(v1, { ...v1 })).toBe(false);
    expect(isNewVersion(null, v2)).toBe(false);
    expect(isNewVersion(v1, null)).toBe(false);
  });

  it('a failed chunk reloads by itself once per new version, never for the same version', () => {
    expect(shouldReloadForVersion(v1, v2, null)).toBe(true);
    expect(shouldReloadForVersion(v1, v2, '1.6.7+def')).toBe(false);
    expect(shouldReloadForVersion(v1, v2, '1.6.7+older')).toBe(true);
    expect(shouldReloadForVersion(v1, v1, null)).toBe(false);
    expect(shouldReloadForVersion(v1, null, null)).toBe(false);
  });
});

describe('a failed page chunk', () => {
  it("is recognised in each browser's words", () => {
    expect(
      isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: http://x/assets/A.js')),
    ).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new Error('error loading dynamically imported module: http://x/a.js'))).toBe(
      true,
    );
    expect(isChunkLoadError(new Error('Unable to preload CSS for /assets/a.css'))).toBe(true);
  });

  it('any other error is not one', () => {
    expect(isChunkLoadError(new TypeError("Cannot read properties of undefined (reading 'x')"))).toBe(false);
    expect(isChunkLoadError('Failed to fetch dynamically imported module')).toBe(false);
    expect(isChunkLoadError(undefined)).toBe(false);
  });
});
