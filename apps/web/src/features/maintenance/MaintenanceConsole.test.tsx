import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Role } from '@portal/contracts/rules';
import { renderWithProviders, testSettings } from '../../ui/testing/render';
import MaintenanceConsole from './MaintenanceConsole';

let roles: Role[] = ['SystemAdmin'];

const puts: unknown[] = [];
const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
  const url = String(input);
  if (url.endsWith('/api/settings/maintenance')) {
    if (init?.method === 'PUT') {
      puts.push(JSON.parse(String(init.body)));
      return Response.json({ maintenance: false });
    }
    return Response.json({ maintenance: true });
  }
  return Response.json({});
});

function renderConsole(reload = vi.fn()) {
  renderWithProviders(<MaintenanceConsole reload={reload} />, { profile: { roles } });
  return reload;
}

beforeEach(() => {
  roles = ['SystemAdmin'];
  puts.length = 0;
  vi.stubGlobal('fetch', fetchMock);
  window.settings = testSettings();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('MaintenanceConsole', () => {
  it('shows a SystemAdmin the maintenance view with the switch under it, and nothing of the product', async () => {
    const reload = renderConsole();
    expect(screen.getByRole('heading', { level: 1, name: 'Under maintenance' })).toBeTruthy();
    expect(await screen.findByTestId('maintenance-state')).toHaveProperty('textContent', 'On');
    // No shell: no banner, no navigation, no footer, no audit log.
    expect(screen.queryByRole('banner')).toBeNull();
    expect(screen.queryByRole('navigation')).toBeNull();
    expect(screen.queryByRole('contentinfo')).toBeNull();
    expect(screen.queryByTestId('audit-log')).toBeNull();

    // Switched off here, the page reloads: the product comes back.
    fireEvent.click(screen.getByRole('button', { name: 'Switch maintenance mode off' }));
    const confirm = await screen.findByRole('dialog', { name: 'Switch maintenance mode off?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Switch off' }));
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    expect(puts).toEqual([{ maintenance: false }]);
  });

  it('shows anyone else the maintenance view alone', () => {
    roles = ['UserAdmin'];
    renderConsole();
    expect(screen.getByRole('heading', { level: 1, name: 'Under maintenance' })).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.queryByTestId('maintenance-state')).toBeNull();
  });
});
