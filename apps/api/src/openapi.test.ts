import { describe, expect, it } from 'vitest';
import { moveNullableIntoBranches, operationIdOf, summaryOf } from './openapi';

describe('operationIdOf', () => {
  it('reads method and path in camel case, a parameter as By<Name>', () => {
    expect(operationIdOf('GET', '/api/events/:id/report')).toBe('getEventsByIdReport');
    expect(operationIdOf('POST', '/api/algorithm/facilitydatasource/:id/file')).toBe(
      'postAlgorithmFacilitydatasourceByIdFile',
    );
    expect(operationIdOf('DELETE', '/api/organizations/:orgId/:facilityId/organization-facility-link')).toBe(
      'deleteOrganizationsByOrgIdByFacilityIdOrganizationFacilityLink',
    );
  });
});

describe('summaryOf', () => {
  it("takes the description's first sentence, or the method and path", () => {
    expect(summaryOf('GET', '/api/x', 'Lists the ships. Newest first.')).toBe('Lists the ships');
    expect(summaryOf('GET', '/api/events/:id', undefined)).toBe('GET /api/events/{id}');
  });
});

describe('moveNullableIntoBranches', () => {
  it('puts nullable into each branch of a union, and unwraps a union of one', () => {
    expect(
      moveNullableIntoBranches({ nullable: true, anyOf: [{ type: 'number' }, { type: 'string' }] }),
    ).toEqual({
      anyOf: [
        { type: 'number', nullable: true },
        { type: 'string', nullable: true },
      ],
    });
    expect(
      moveNullableIntoBranches({ properties: { to: { nullable: true, anyOf: [{ type: 'string' }] } } }),
    ).toEqual({ properties: { to: { type: 'string', nullable: true } } });
  });

  it('leaves a nullable beside its type alone', () => {
    const schema = { type: 'string', nullable: true };
    expect(moveNullableIntoBranches(schema)).toEqual(schema);
  });
});
