import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import type { Report } from '@portal/contracts/reports';
import { renderWithProviders, testSettings } from '../../ui/testing/render';
import { activeContent, HOSTILE_TEXTS } from '../../ui/testing/hostile-dom';
import ReportDetailPage from './ReportDetailPage';

// Report information is HTML from the editor (bold, italic, lists, links). The view sanitises it: the editor's
// formatting stays, anything that could run script goes. Name and documentation are plain text.

const information = [
  '<p><b>Bold</b> and <i>italic</i> notes</p>',
  '<ul><li>first point</li></ul>',
  '<p><a href="https://example.com/guide">the guide</a></p>',
  '<p style="background:url(javascript:alert(1))" onclick="window.__pwned=1">styled</p>',
  '<form action="javascript:window.__pwned=1"><button formaction="javascript:window.__pwned=1">go</button></form>',
  // Last: the <math><style> payload swallows what follows it.
  ...HOSTILE_TEXTS,
].join('\n');

const report: Report = {
  id: 'FacilityMarpolcompliance',
  name: HOSTILE_TEXTS[1],
  target: 'Facility',
  approvedFieldsCount: 0,
  totalFieldsCount: 0,
  documentation: HOSTILE_TEXTS[5],
  information,
  fields: [],
};

beforeEach(() => {
  window.__pwned = undefined;
  window.settings = testSettings();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = String(input);
      if (url.includes('/api/algorithm/reports/')) return Response.json(report);
      if (url.includes('/api/algorithm/measurement-fields')) return Response.json([]);
      return Response.json({});
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('hostile report information in the real report view', () => {
  it('keeps the editor’s formatting and readable text, and nothing that runs script', async () => {
    const { container } = renderWithProviders(
      <Routes>
        <Route path="/report-config/detail/:id" element={<ReportDetailPage />} />
      </Routes>,
      { route: `/report-config/detail/${report.id}` },
    );
    const view = await screen.findByTestId('report-information');
    // Formatting and text of the editor survive.
    expect(view.querySelector('b')?.textContent).toBe('Bold');
    expect(view.querySelector('i')?.textContent).toBe('italic');
    expect(view.querySelector('li')?.textContent).toBe('first point');
    expect(within(view).getByRole('link', { name: 'the guide' }).getAttribute('href')).toBe(
      'https://example.com/guide',
    );
    for (const text of ['open', 'entity link', 'styled', 'go']) expect(view.textContent).toContain(text);
    // Nothing that runs.
    expect(activeContent(view)).toEqual([]);
    // Name and documentation: the literal text.
    expect(screen.getByTestId('report-name').textContent).toBe(HOSTILE_TEXTS[1]);
    expect(screen.getByText(HOSTILE_TEXTS[5], { normalizer: (s) => s })).toBeTruthy();
    expect(activeContent(container)).toEqual([]);
    expect(window.__pwned).toBeUndefined();
  });
});
