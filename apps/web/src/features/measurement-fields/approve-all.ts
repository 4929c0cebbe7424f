import { isApprovable } from '@portal/contracts/measurement-fields';

export interface ApproveAllProgress {
  total: number;
  completed: number;
  failed: number;
  skipped: number;
}

/**
 * Approve all: each approvable field in turn (has calculations, none approved), approving the first calculation
 * listed; skipped when the field has no calculation by the time it comes up, failed when the approval is refused.
 */
export async function approveAll<
  F extends { id: string; calculations: number; approvedCalculations: number },
>(
  fields: readonly F[],
  deps: {
    list(fieldId: string): Promise<{ id: string }[]>;
    approve(fieldId: string, calcId: string): Promise<unknown>;
  },
  onProgress: (p: ApproveAllProgress) => void,
): Promise<ApproveAllProgress> {
  const todo = fields.filter(isApprovable);
  const p: ApproveAllProgress = { total: todo.length, completed: 0, failed: 0, skipped: 0 };
  onProgress({ ...p });
  for (const field of todo) {
    try {
      const [first] = await deps.list(field.id);
      if (!first) p.skipped++;
      else {
        await deps.approve(field.id, first.id);
        p.completed++;
      }
    } catch {
      p.failed++;
    }
    onProgress({ ...p });
  }
  return p;
}
