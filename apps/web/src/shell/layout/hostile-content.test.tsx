import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import type { Facility } from '@portal/contracts/facilities';
import type { Message } from '@portal/contracts/messages';
import { lastMonthPeriod } from '@portal/contracts/rules';
import { renderWithProviders, testSettings } from '../../ui/testing/render';
import { activeContent, HOSTILE_TEXTS } from '../../ui/testing/hostile-dom';
import { MessageBell } from '../../features/messages';
import { NavDrawer } from './NavDrawer';

// Hostile messages and ship names go through the real bell list and drawer: React must show them as text.

const ship = (id: string, name: string): Facility => ({
  id,
  name,
  imo: null,
  primaryOrganizationId: 'n',
  primaryOrganizationName: 'Nordic',
  scrubberSystemType: 'Hybrid',
  numberOfScrubbers: 1,
  systemManufacturer: null,
  totalEffectKW: null,
  startDate: null,
  endDate: null,
  dataTimeStampMin: null,
  dataTimeStampMax: '2026-01-02T00:00:00.000Z',
  dataCoverage: null,
  imageBase64: null,
  dataSourceCount: 0,
  organizationIds: ['n'],
  shipType: null,
  deadweightTonnes: null,
  grossTonnage: null,
});
const ships = HOSTILE_TEXTS.map((name, k) => ship(`ship-${k}`, name));

const messages: Message[] = HOSTILE_TEXTS.map((text, k) => ({
  id: `m${k}`,
  title: k % 2 ? text : `Title ${k}`,
  text,
  showFrom: '2026-01-01T00:00:00.000Z',
  showTo: '2027-01-01T00:00:00.000Z',
  notify: false,
  type: null,
  isPersonal: false,
  facilityId: null,
  isRead: false,
}));

beforeEach(() => {
  window.__pwned = undefined;
  window.settings = testSettings();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) =>
      String(input).includes('/api/messages') ? Response.json(messages) : Response.json({}),
    ),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const renderWithApp = (node: React.ReactElement) =>
  renderWithProviders(node, {
    profile: { organizationId: 'n' },
    fleet: { period: lastMonthPeriod(new Date('2026-02-10T00:00:00Z')), facilities: ships },
  });

describe('hostile text in the shell', () => {
  it('the check finds script, handlers, javascript: URLs and frames when the same texts are parsed as HTML', () => {
    // The control: what the components below must not do.
    const found = HOSTILE_TEXTS.flatMap((text) => {
      const unsafe = document.createElement('div');
      unsafe.innerHTML = text;
      return activeContent(unsafe);
    }).join('\n');
    for (const expected of [
      '<script> element',
      'onerror attribute on <img>',
      'javascript: URL in href of <a>',
      'onload attribute on <svg>',
      '<iframe> element',
    ])
      expect(found).toContain(expected);
  });

  it('the message bell lists script, event handlers, javascript: links, SVG and mutation XSS as plain text', async () => {
    renderWithApp(<MessageBell />);
    fireEvent.click(screen.getByTestId('message-bell'));
    const shown = await screen.findAllByTestId('message');
    expect(shown).toHaveLength(HOSTILE_TEXTS.length);
    shown.forEach((item, k) => {
      // The exact text (and, on every other message, the title too), readable, with nothing parsed out of it.
      expect(within(item).getAllByText(HOSTILE_TEXTS[k]!, { normalizer: (s) => s })).toHaveLength(
        k % 2 ? 2 : 1,
      );
      if (k % 2) expect(within(item).getByRole('heading').textContent).toBe(HOSTILE_TEXTS[k]);
      expect(item.querySelectorAll('img, svg:not([data-testid]), a, noscript, math, iframe')).toHaveLength(0);
    });
    expect(activeContent(document.body)).toEqual([]);
    expect(window.__pwned).toBeUndefined();
  });

  it('the drawer shows hostile ship names as text in their entries', () => {
    const { container } = renderWithApp(<NavDrawer />);
    const entries = within(screen.getByTestId('drawer-ships')).getAllByRole('link');
    expect(entries).toHaveLength(ships.length);
    entries.forEach((entry, k) => {
      expect(within(entry).getByText(ships[k]!.name, { normalizer: (s) => s })).toBeTruthy();
      expect(entry.getAttribute('href')).toBe(`/ship/${ships[k]!.id}`);
      expect(entry.querySelectorAll('img, a, noscript, math, iframe, script')).toHaveLength(0);
    });
    expect(activeContent(container)).toEqual([]);
    expect(window.__pwned).toBeUndefined();
  });
});
