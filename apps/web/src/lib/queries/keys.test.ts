import { describe, expect, it } from 'vitest';
import { matchQuery, QueryClient } from '@tanstack/react-query';
import {
  calculationKeys,
  executionKeys,
  facilityKeys,
  measurementFieldKeys,
  messageKeys,
  organizationKeys,
  reportKeys,
} from './keys';

const refreshes = (prefix: readonly unknown[], key: readonly unknown[]) => {
  const client = new QueryClient();
  const query = client.getQueryCache().build(client, { queryKey: key });
  return matchQuery({ queryKey: prefix }, query);
};

describe('query key factories', () => {
  it('make the keys the app has always used, so cached data and refreshes stay as they were', () => {
    expect(facilityKeys.list({})).toEqual(['facilities', {}]);
    expect(facilityKeys.detail('f')).toEqual(['facilities', 'f', 'facility']);
    expect(facilityKeys.uploadCredentials('f')).toEqual(['facilities', 'f', 'upload-credentials']);
    expect(organizationKeys.list()).toEqual(['organizations']);
    expect(organizationKeys.users('o')).toEqual(['organizations', 'o', 'users']);
    expect(messageKeys.active()).toEqual(['messages', { isActive: true }]);
    expect(calculationKeys.reportField('r', 'f')).toEqual(['calculations', 'report-field', 'r', 'f']);
    expect(measurementFieldKeys.detail('m', 'f')).toEqual(['measurement-fields', 'detail', 'm', 'f']);
    expect(reportKeys.detail('r')).toEqual(['algorithm-reports', 'r']);
    expect(executionKeys.status()).toEqual(['executions', 'status']);
  });

  it('refresh everything of a resource by its `all` key, and nothing of another', () => {
    expect(refreshes(facilityKeys.all, facilityKeys.list({ asAdmin: true }))).toBe(true);
    expect(refreshes(facilityKeys.all, facilityKeys.hasSecondaryOrganizations('f'))).toBe(true);
    expect(refreshes(organizationKeys.all, organizationKeys.detail('o'))).toBe(true);
    expect(refreshes(calculationKeys.all, calculationKeys.measurementField('f', 'm'))).toBe(true);
    expect(refreshes(facilityKeys.all, organizationKeys.list())).toBe(false);
  });
});
