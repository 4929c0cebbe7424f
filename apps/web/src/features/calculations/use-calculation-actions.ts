import { useMutation } from '@tanstack/react-query';
import { MESSAGES } from '@portal/contracts/rules';
import type { ValidationResult } from '@portal/contracts/calculations';
import { ApiRequestError } from '../../lib/api';
import { useNotify } from '../../lib/notifications';
import {
  approveCalculation,
  createCalculation,
  deleteCalculation,
  saveCalculation,
  useRefreshAfterChange,
  validateLogic,
  validateSyntax,
  type AlgorithmInput,
  type CalculationBody,
  type CalculationTarget,
} from './calculations-api';

/** Why the server refused (a 4xx with a message), or null. */
const refusalOf = (error: unknown): string | null =>
  error instanceof ApiRequestError && error.status < 500 && error.body?.message ? error.body.message : null;

/** What the editor does with the answers; the notifications and the refresh are the actions' own. */
export interface ActionEvents {
  /** A validation answered, for the algorithm whose validation key is `key`. */
  validated(key: string, result: ValidationResult): void;
  tested(result: ValidationResult): void;
  /** Save with a recalculation found errors: the user may keep it as a draft. */
  needsDraft(): void;
  /** Saved or created: the editor goes back to the latest calculation. */
  saved(): void;
  /** ...and the lists are refreshed (a draft dialog that asked for this save closes now). */
  savedAndRefreshed(): void;
  approved(): void;
  deleted(): void;
  /** The server refused an action and said why (a 4xx with a message): the editor shows it in its output. */
  refused(message: string): void;
}

interface Call {
  target: CalculationTarget;
  algorithm: AlgorithmInput;
}

/**
 * The editor's calls (spec part 2, section 4): Validate, Test, Save (with or without queuing, or as a draft),
 * Approve and Delete. A failure shows the spec's text (part 2, section 8): 'An error occurred when saving' for Save,
 * the default error notification for the others; the server's reason for a refusal goes to the output. After a
 * change the calculations and what shows their state are refreshed before the action counts as done (`busy` until
 * then).
 */
export function useCalculationActions(on: ActionEvents) {
  const notify = useNotify();
  const refresh = useRefreshAfterChange();
  const failed = (text: string) => (error: unknown) => {
    notify.error(text, error);
    const reason = refusalOf(error);
    if (reason) on.refused(reason);
  };

  const validate = useMutation({
    mutationFn: ({ target, algorithm }: Call & { key: string }) => validateSyntax(target, algorithm),
    onSuccess: (result, { key }) => {
      on.validated(key, result);
      if (result.success) notify.success(result.success);
    },
    onError: failed(MESSAGES.DEFAULT_ERROR),
  });

  const test = useMutation({
    mutationFn: ({ target, algorithm, data }: Call & { data: Parameters<typeof validateLogic>[2] }) =>
      validateLogic(target, algorithm, data),
    onSuccess: (result) => {
      on.tested(result);
      if (result.success) notify.success(result.success);
    },
    onError: failed(MESSAGES.DEFAULT_ERROR),
  });

  /**
   * Save validates first when it queues a recalculation: code with errors is never saved with one (the answer is
   * then null, and the user may keep it as a draft). Save without queuing and Save as draft store at once.
   */
  const save = useMutation({
    mutationFn: async (
      v: Call & { key: string; id?: string; body: CalculationBody; recalculate: boolean },
    ) => {
      if (v.recalculate) {
        const result = await validateSyntax(v.target, v.algorithm);
        on.validated(v.key, result);
        if (result.errors.length) return null;
      }
      return v.id
        ? saveCalculation(v.target, v.id, v.body, v.recalculate)
        : createCalculation(v.target, v.body);
    },
    onSuccess: async (saved) => {
      if (!saved) return on.needsDraft();
      notify.success(saved.message);
      on.saved();
      await refresh();
      on.savedAndRefreshed();
    },
    onError: failed(MESSAGES.SAVE_ERROR),
  });

  const approve = useMutation({
    mutationFn: (v: {
      target: CalculationTarget;
      id: string;
      validity: { validFrom: string; validTo: string | null };
    }) => approveCalculation(v.target, v.id, v.validity),
    onSuccess: async (approved) => {
      on.approved();
      notify.success(approved.message);
      await refresh();
    },
    onError: failed(MESSAGES.DEFAULT_ERROR),
  });

  const remove = useMutation({
    mutationFn: (v: { target: CalculationTarget; id: string }) => deleteCalculation(v.target, v.id),
    onSuccess: async () => {
      on.deleted();
      notify.success();
      await refresh();
    },
    onError: failed(MESSAGES.DEFAULT_ERROR),
  });

  const busy = [validate, test, save, approve, remove].some((m) => m.isPending);
  return { validate, test, save, approve, remove, busy };
}
