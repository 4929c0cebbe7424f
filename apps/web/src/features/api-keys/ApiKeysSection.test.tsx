import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ApiKey } from '@portal/contracts/api-keys';
import { renderWithProviders, testSettings } from '../../ui/testing/render';
import { ApiKeysSection } from './ApiKeysSection';

const SECRET = `spk_3f2b8c1e-7a4d-4e2f-9b6a-1c2d3e4f5a6b_${'A'.repeat(43)}`;
const KEY: ApiKey = {
  id: '3f2b8c1e-7a4d-4e2f-9b6a-1c2d3e4f5a6b',
  name: 'Power BI',
  scopes: ['reports:read'],
  createdOn: '2025-03-10T08:05:00.000Z',
  createdBy: 'north.admin',
  expiresOn: null,
  lastUsedOn: null,
};
let keys: ApiKey[] = [];
let createAnswer: { status: number; body: unknown } = { status: 201, body: {} };
const requests: { method: string; url: string; body: unknown }[] = [];
const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
  const method = init?.method ?? 'GET';
  const body = init?.body ? JSON.parse(String(init.body)) : undefined;
  requests.push({ method, url: String(input), body });
  const answer =
    method === 'POST'
      ? createAnswer
      : method === 'DELETE'
        ? { status: 204, body: null }
        : { status: 200, body: keys };
  return new Response(answer.body === null ? null : JSON.stringify(answer.body), {
    status: answer.status,
    headers: { 'content-type': 'application/json' },
  });
});

function renderSection() {
  renderWithProviders(<ApiKeysSection organizationId="org-1" />);
}

beforeEach(() => {
  keys = [];
  requests.length = 0;
  createAnswer = { status: 201, body: { ...KEY, key: SECRET } };
  vi.stubGlobal('fetch', fetchMock);
  window.settings = testSettings();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('ApiKeysSection', () => {
  it('lists the keys with their scopes, maker, expiry and last use, or says there are none', async () => {
    renderSection();
    await screen.findByText('No API keys yet.');
    cleanup();
    keys = [
      KEY,
      {
        ...KEY,
        id: 'k2',
        name: 'Uploader',
        scopes: ['files:upload'],
        lastUsedOn: '2025-03-11T10:00:00.000Z',
      },
    ];
    renderSection();
    const rows = await screen.findAllByTestId('api-key-row');
    expect(rows.map((r) => r.textContent)).toEqual([
      'Power BIRead reports and events2025.03.10 08:05 by north.adminNeverNot used yet',
      'UploaderUpload files2025.03.10 08:05 by north.adminNever2025.03.11 10:00',
    ]);
  });

  it('creates a key: Create waits for a name and a scope, then the key is shown once with the warning', async () => {
    renderSection();
    await screen.findByText('No API keys yet.');
    fireEvent.click(screen.getByRole('button', { name: 'New API key' }));
    const dialog = await screen.findByRole('dialog');
    const create = within(dialog).getByRole('button', { name: 'Create' }) as HTMLButtonElement;
    expect(create.disabled).toBe(true);
    const name = within(dialog).getByRole('textbox', { name: /Name/ });
    fireEvent.blur(name);
    expect(within(dialog).getByText('Name is required')).toBeTruthy();
    fireEvent.change(name, { target: { value: 'Power BI' } });
    expect(create.disabled).toBe(true);
    const read = within(dialog).getByLabelText('Read reports and events (reports:read)');
    fireEvent.click(read);
    fireEvent.click(read);
    expect(within(dialog).getByText('Choose at least one scope')).toBeTruthy();
    fireEvent.click(read);
    expect(create.disabled).toBe(false);
    fireEvent.click(create);
    await within(dialog).findByText(/it will not be shown again/);
    expect(requests.find((r) => r.method === 'POST')).toMatchObject({
      url: expect.stringContaining('/api/organizations/org-1/api-keys'),
      body: { name: 'Power BI', scopes: ['reports:read'], expiresOn: null },
    });
    expect((within(dialog).getByTestId('created-api-key') as HTMLInputElement).value).toBe(SECRET);
    expect(within(dialog).getByRole('button', { name: 'Copy the API key' })).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.body.textContent).not.toContain(SECRET);
  });

  it("shows the server's refusal at its field", async () => {
    createAnswer = {
      status: 400,
      body: {
        code: 'VALIDATION_FAILED',
        message: 'name: An API key with this name exists already',
        fields: { name: 'An API key with this name exists already' },
      },
    };
    renderSection();
    await screen.findByText('No API keys yet.');
    fireEvent.click(screen.getByRole('button', { name: 'New API key' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByRole('textbox', { name: /Name/ }), {
      target: { value: 'Power BI' },
    });
    fireEvent.click(within(dialog).getByLabelText('Upload files (files:upload)'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    await within(dialog).findByText('An API key with this name exists already');
  });

  it('revokes a key after asking', async () => {
    keys = [KEY];
    renderSection();
    fireEvent.click(await screen.findByRole('button', { name: 'Revoke Power BI' }));
    const confirm = await screen.findByRole('dialog');
    expect(within(confirm).getByText('Revoke the API key Power BI?')).toBeTruthy();
    fireEvent.click(within(confirm).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(requests.some((r) => r.method === 'DELETE')).toBe(true));
    expect(requests.find((r) => r.method === 'DELETE')!.url).toContain(
      `/api/organizations/org-1/api-keys/${KEY.id}`,
    );
  });
});
