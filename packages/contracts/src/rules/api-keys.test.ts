import { describe, expect, it } from 'vitest';
import { apiKeyRow, revokeApiKeyTitle } from './api-keys';

const key = {
  id: 'k1',
  name: 'Power BI',
  scopes: ['reports:read', 'files:upload'] as ('reports:read' | 'files:upload')[],
  createdOn: '2025-03-10T08:05:00.000Z',
  createdBy: 'north.admin',
  expiresOn: null,
  lastUsedOn: null,
};
const NOW = Date.parse('2025-06-10T12:00:00.000Z');

describe('apiKeyRow', () => {
  it('names the scopes, who made it and when, and says Never and Not used yet when so', () => {
    expect(apiKeyRow(key, NOW)).toEqual({
      scopes: 'Read reports and events, Upload files',
      created: '2025.03.10 08:05 by north.admin',
      expires: 'Never',
      expired: false,
      lastUsed: 'Not used yet',
    });
  });

  it('shows the expiry, Expired once it passed, the last use, and the time alone when its maker was deleted', () => {
    const soon = apiKeyRow(
      { ...key, expiresOn: '2025-07-01T00:00:00.000Z', lastUsedOn: '2025-06-10T11:59:00.000Z' },
      NOW,
    );
    expect(soon).toMatchObject({ expires: '2025.07.01 00:00', expired: false, lastUsed: '2025.06.10 11:59' });
    expect(apiKeyRow({ ...key, expiresOn: '2025-06-10T12:00:00.000Z' }, NOW)).toMatchObject({
      expires: 'Expired 2025.06.10 12:00',
      expired: true,
    });
    expect(apiKeyRow({ ...key, createdBy: null, scopes: ['files:upload'] }, NOW)).toMatchObject({
      created: '2025.03.10 08:05',
      scopes: 'Upload files',
    });
  });

  it('asks before revoking by the key’s name', () => {
    expect(revokeApiKeyTitle('Power BI')).toBe('Revoke the API key Power BI?');
  });
});
