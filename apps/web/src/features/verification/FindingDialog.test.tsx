import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { SuggestedMisstatement } from '@portal/contracts/verification';
import { renderWithProviders, testSettings } from '../../ui/testing/render';
import { FindingDialog } from './FindingDialog';

const SHIP = '3f2b8c1e-7a4d-4e2f-9b6a-1c2d3e4f5a6b';
const SUGGESTION: SuggestedMisstatement = {
  facilityId: SHIP,
  shipName: 'Baltic Tern',
  fuelType: 'HFO',
  figure: 'Heavy fuel oil (HFO) burnt by the flow meters, Baltic Tern',
  evidence: 'Bunker delivery notes BDN-7; tank soundings at the start and end of the period',
  reportedValue: 100,
  evidenceValue: 200,
  differencePercent: -50,
  aboveThreshold: true,
};
const posted: unknown[] = [];
const fetchMock = vi.fn(async (_input: RequestInfo | URL, init?: RequestInit) => {
  posted.push(init?.body ? JSON.parse(String(init.body)) : undefined);
  return new Response(JSON.stringify({}), { status: 201, headers: { 'content-type': 'application/json' } });
});

beforeEach(() => {
  posted.length = 0;
  vi.stubGlobal('fetch', fetchMock);
  window.settings = testSettings();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const ships = [{ facilityId: SHIP, name: 'Baltic Tern' }] as never[];

describe('FindingDialog', () => {
  it('fills in a suggested misstatement, shows its difference above 5 % and records it with both values', async () => {
    const onClose = vi.fn();
    renderWithProviders(
      <FindingDialog
        organizationId="org-1"
        year={2026}
        ships={ships}
        suggestion={SUGGESTION}
        onClose={onClose}
      />,
    );
    expect(screen.getByTestId('finding-difference').textContent).toBe(
      'Difference: −50.0 % — above 5 %, material',
    );
    fireEvent.change(screen.getByRole('textbox', { name: 'As reported (t)' }), { target: { value: '196' } });
    expect(screen.getByTestId('finding-difference').textContent).toBe('Difference: −2.0 %');
    fireEvent.click(screen.getByRole('button', { name: 'Record' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(posted[0]).toMatchObject({
      facilityId: SHIP,
      kind: 'misstatement',
      reportedValue: 196,
      evidenceValue: 200,
      evidence: SUGGESTION.evidence,
    });
  });

  it('sends nothing without a description', () => {
    renderWithProviders(
      <FindingDialog
        organizationId="org-1"
        year={2026}
        ships={ships}
        suggestion={null}
        onClose={() => undefined}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Record' }));
    expect(screen.getByText('Describe the finding')).toBeTruthy();
    expect(posted).toEqual([]);
  });
});
