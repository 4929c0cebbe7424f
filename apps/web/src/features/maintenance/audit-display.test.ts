import { describe, expect, it } from 'vitest';
import { auditDetailText, auditSubjectText } from './audit-display';

const ship = '0a7fc4f7-3328-4460-8949-6837e72b387c';
const org = '111b933b-659b-4af5-9bec-45db75d4e945';
const event = '6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f';

describe('an audit entry as shown', () => {
  it('names the ships, organizations and users its detail holds ids of', () => {
    expect(
      auditDetailText(
        { facilityId: ship, organizationId: org, cause: 'pump' },
        { [ship]: 'Nordic Star', [org]: 'Nordic Bulk Carriers' },
      ),
    ).toBe('ship: Nordic Star, organization: Nordic Bulk Carriers, cause: pump');
  });

  it('keeps an id the API could not name, and anything else as stored', () => {
    expect(auditDetailText({ facilityId: ship, range: { from: 1 } }, {})).toBe(
      `facilityId: ${ship}, range: {"from":1}`,
    );
    expect(auditDetailText('plain')).toBe('plain');
    expect(auditDetailText(null)).toBe('');
  });

  it('says what it was done to by name, else as stored', () => {
    expect(auditSubjectText({ subject: ship, subjectName: 'Nordic Star' })).toBe('Nordic Star');
    expect(auditSubjectText({ subject: event, subjectName: null })).toBe(event);
    expect(auditSubjectText({ subject: null, subjectName: null })).toBe('');
  });
});
