import { describe, expect, it } from 'vitest';
import {
  generateLinkKey,
  linkKeySchema,
  organizationSchema,
  validateLinkKey,
  validateOrganization,
} from './organization';

describe('organization form', () => {
  it('requires a name', () => {
    expect(validateOrganization({ name: ' ' })).toEqual({ name: 'Name is required' });
    expect(validateOrganization({})).toEqual({ name: 'Name is required' });
  });

  it('leaves email optional but checks it when given', () => {
    expect(validateOrganization({ name: 'Alpha', email: '' })).toEqual({});
    expect(validateOrganization({ name: 'Alpha', email: null })).toEqual({});
    expect(validateOrganization({ name: 'Alpha', email: 'ops@alpha-shipping.no' })).toEqual({});
    expect(validateOrganization({ name: 'Alpha', email: 'ops@alpha' })).toEqual({
      email: 'E-mail must be valid',
    });
    expect(validateOrganization({ name: 'Alpha', email: 'ops alpha.no' })).toEqual({
      email: 'E-mail must be valid',
    });
  });

  it('trims and fills defaults', () => {
    expect(organizationSchema.parse({ name: ' Alpha ', email: ' ops@alpha.no ', phone: undefined })).toEqual({
      name: 'Alpha',
      email: 'ops@alpha.no',
      phone: '',
      priority: false,
    });
  });
});

describe('link key', () => {
  it.each([
    ['', 'You have to specify a link key'],
    ['abc-123', 'Only letters and numbers are allowed'],
    ['ab c123', 'Only letters and numbers are allowed'],
    ['abc123', 'Key must be 7 characters'],
    ['abc12345', 'Key must be 7 characters'],
  ])('%j -> %s', (linkKey, message) => {
    expect(validateLinkKey({ linkKey })).toEqual({ linkKey: message });
  });

  it('accepts 7 letters and digits', () => {
    expect(validateLinkKey({ linkKey: 'aB3dE5g' })).toEqual({});
    expect(validateLinkKey({ linkKey: ' aB3dE5g ' })).toEqual({});
  });

  it('generates keys the form accepts', () => {
    const keys = new Set(Array.from({ length: 100 }, generateLinkKey));
    for (const key of keys) expect(linkKeySchema.safeParse(key).success).toBe(true);
    expect(keys.size).toBe(100);
  });
});
