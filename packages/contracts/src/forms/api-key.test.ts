import { describe, expect, it } from 'vitest';
import { apiKeyExpiry, apiKeyFormSchema, validateApiKey } from './api-key';

const NOW = Date.parse('2025-06-10T15:00:00.000Z');
const schema = apiKeyFormSchema(() => NOW);

describe('API key form', () => {
  it('parses a name, the scopes in their order, each once, and a date as the start of that day UTC', () => {
    expect(
      schema.parse({
        name: '  Power BI  ',
        scopes: ['files:upload', 'reports:read', 'files:upload'],
        expiresOn: '2025-06-11',
      }),
    ).toEqual({
      name: 'Power BI',
      scopes: ['reports:read', 'files:upload'],
      expiresOn: '2025-06-11T00:00:00.000Z',
    });
  });

  it('leaves the expiry optional', () => {
    for (const expiresOn of [undefined, null, '', '  '])
      expect(schema.parse({ name: 'Uploader', scopes: ['files:upload'], expiresOn }).expiresOn).toBeNull();
  });

  it('takes an instant later than now', () => {
    expect(
      schema.parse({ name: 'Short', scopes: ['reports:read'], expiresOn: '2025-06-10T15:00:05+00:00' })
        .expiresOn,
    ).toBe('2025-06-10T15:00:05.000Z');
  });

  it('requires a name and a scope', () => {
    expect(validateApiKey({ name: ' ', scopes: [] }, NOW)).toEqual({
      name: 'Name is required',
      scopes: 'Choose at least one scope',
    });
    expect(validateApiKey({}, NOW)).toEqual({
      name: 'Name is required',
      scopes: 'Choose at least one scope',
    });
  });

  it('refuses an unknown scope, a long or deceiving name', () => {
    expect(validateApiKey({ name: 'x', scopes: ['admin'] }, NOW)).toEqual({ scopes: 'Unknown scope' });
    expect(validateApiKey({ name: 'x'.repeat(101), scopes: ['reports:read'] }, NOW)).toEqual({
      name: 'Cannot be longer than 100 characters',
    });
    expect(validateApiKey({ name: 'Key\u202Eevil', scopes: ['reports:read'] }, NOW).name).toBe(
      'Cannot contain characters that change the text direction',
    );
  });

  it('refuses an expiry that is today, past or not a date', () => {
    const valid = { name: 'Key', scopes: ['reports:read'] };
    expect(validateApiKey({ ...valid, expiresOn: '2025-06-10' }, NOW)).toEqual({
      expiresOn: 'Must be a date after today',
    });
    expect(validateApiKey({ ...valid, expiresOn: '2025-06-10T14:59:59Z' }, NOW)).toEqual({
      expiresOn: 'Must be a date after today',
    });
    for (const expiresOn of ['2025-02-30', 'tomorrow', 12])
      expect(validateApiKey({ ...valid, expiresOn }, NOW)).toEqual({ expiresOn: 'Must be a valid date' });
    expect(validateApiKey({ ...valid, expiresOn: '2025-06-11' }, NOW)).toEqual({});
  });
});

describe('apiKeyExpiry', () => {
  it('reads a date as the start of its day UTC, an instant as it is, empty as none', () => {
    expect(apiKeyExpiry('2026-01-31')?.toISOString()).toBe('2026-01-31T00:00:00.000Z');
    expect(apiKeyExpiry('2026-01-31T12:00:00+02:00')?.toISOString()).toBe('2026-01-31T10:00:00.000Z');
    expect(apiKeyExpiry('')).toBeNull();
    expect(apiKeyExpiry(undefined)).toBeNull();
    expect(apiKeyExpiry('2026-13-01')).toBeUndefined();
  });
});
