import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ReactNode } from 'react';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MESSAGES } from '@portal/contracts/rules';
import type { ValidationResult } from '@portal/contracts/calculations';
import { ApiRequestError } from '../../lib/api';
import * as api from './calculations-api';
import { useCalculationActions, type ActionEvents } from './use-calculation-actions';

const notifier = { notify: vi.fn(), error: vi.fn(), success: vi.fn(), online: true };
vi.mock('../../lib/notifications', () => ({ useNotify: () => notifier }));
vi.mock('./calculations-api', async (original) => ({
  ...(await original<typeof api>()),
  validateSyntax: vi.fn(),
  saveCalculation: vi.fn(),
  createCalculation: vi.fn(),
  deleteCalculation: vi.fn(),
}));

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

const target: api.CalculationTarget = { kind: 'report-field', reportId: 'r', reportFieldId: 'f' };
const algorithm = { transformAlgorithm: 'return 1;', inputIds: [] };
const body = {} as api.CalculationBody;
const result = (errors: ValidationResult['errors']): ValidationResult =>
  ({ success: errors.length ? null : 'Valid', errors, results: [] }) as unknown as ValidationResult;

function setup() {
  const client = new QueryClient();
  const events: ActionEvents = {
    validated: vi.fn(),
    tested: vi.fn(),
    needsDraft: vi.fn(),
    saved: vi.fn(),
    savedAndRefreshed: vi.fn(),
    approved: vi.fn(),
    deleted: vi.fn(),
    refused: vi.fn(),
  };
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  const { result: hook } = renderHook(() => useCalculationActions(events), { wrapper });
  return { hook, events };
}

describe('useCalculationActions', () => {
  it('Save with a recalculation validates first and offers the draft when the code has errors', async () => {
    vi.mocked(api.validateSyntax).mockResolvedValue(
      result([{ message: 'x', startLine: 1, startCharacter: 1 } as ValidationResult['errors'][number]]),
    );
    const { hook, events } = setup();
    act(() => hook.current.save.mutate({ target, algorithm, key: 'k', id: 'c', body, recalculate: true }));
    await waitFor(() => expect(events.needsDraft).toHaveBeenCalled());
    expect(events.validated).toHaveBeenCalledWith('k', expect.anything());
    expect(api.saveCalculation).not.toHaveBeenCalled();
    expect(notifier.success).not.toHaveBeenCalled();
  });

  it('Save shows the server message, is busy until the lists are refreshed, and creates a new calculation', async () => {
    let answer: (value: Awaited<ReturnType<typeof api.createCalculation>>) => void = () => undefined;
    vi.mocked(api.createCalculation).mockReturnValue(new Promise((resolve) => (answer = resolve)));
    const { hook, events } = setup();
    act(() => hook.current.save.mutate({ target, algorithm, key: 'k', body, recalculate: false }));
    await waitFor(() => expect(hook.current.busy).toBe(true));
    answer({ message: 'Created', calculation: {} as never });
    await waitFor(() => expect(events.savedAndRefreshed).toHaveBeenCalled());
    expect(api.validateSyntax).not.toHaveBeenCalled();
    expect(notifier.success).toHaveBeenCalledWith('Created');
    expect(events.saved).toHaveBeenCalled();
    await waitFor(() => expect(hook.current.busy).toBe(false));
  });

  it("a failed save shows 'An error occurred when saving', another failure the default error; a refusal's reason goes to the output", async () => {
    const { hook, events } = setup();
    vi.mocked(api.saveCalculation).mockRejectedValueOnce(
      new ApiRequestError(409, { message: 'Refused', code: 'CONFLICT' } as never),
    );
    act(() => hook.current.save.mutate({ target, algorithm, key: 'k', id: 'c', body, recalculate: false }));
    await waitFor(() =>
      expect(notifier.error).toHaveBeenCalledWith(MESSAGES.SAVE_ERROR, expect.any(ApiRequestError)),
    );
    expect(notifier.error).not.toHaveBeenCalledWith('Refused', expect.anything());
    expect(events.refused).toHaveBeenCalledWith('Refused');
    vi.mocked(api.saveCalculation).mockRejectedValueOnce(new ApiRequestError(500, undefined));
    act(() => hook.current.save.mutate({ target, algorithm, key: 'k', id: 'c', body, recalculate: false }));
    await waitFor(() => expect(notifier.error).toHaveBeenCalledTimes(2));
    expect(notifier.error).toHaveBeenLastCalledWith(MESSAGES.SAVE_ERROR, expect.any(ApiRequestError));
    expect(events.refused).toHaveBeenCalledTimes(1);
    vi.mocked(api.validateSyntax).mockRejectedValueOnce(
      new ApiRequestError(400, { message: 'Unknown input', code: 'BAD_REQUEST' } as never),
    );
    act(() => hook.current.validate.mutate({ target, algorithm, key: 'k' }));
    await waitFor(() =>
      expect(notifier.error).toHaveBeenLastCalledWith(MESSAGES.DEFAULT_ERROR, expect.any(ApiRequestError)),
    );
    expect(events.refused).toHaveBeenLastCalledWith('Unknown input');
    vi.mocked(api.deleteCalculation).mockRejectedValueOnce(new TypeError('offline'));
    act(() => hook.current.remove.mutate({ target, id: 'c' }));
    await waitFor(() =>
      expect(notifier.error).toHaveBeenLastCalledWith(MESSAGES.DEFAULT_ERROR, expect.any(TypeError)),
    );
    expect(events.refused).toHaveBeenCalledTimes(2);
  });
});
