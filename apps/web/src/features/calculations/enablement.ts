import { CALCULATION_HISTORY_MIN_VERSIONS } from '@portal/contracts/rules';

/** What the editor knows when it decides which buttons are enabled (spec part 2, section 4). */
export interface EditorFacts {
  /** Not saved yet (NEW chip): a fresh calculation or a restored version. */
  isNew: boolean;
  /** A recalculation with it is queued. */
  locked: boolean;
  approved: boolean;
  canDelete: boolean;
  /** The form differs from the saved calculation. */
  dirty: boolean;
  /** The settings form has no errors. */
  formValid: boolean;
  /** The last validation succeeded for exactly the algorithm, inputs and output type now in the editor. */
  validated: boolean;
  /** An older version is open read-only. */
  viewingHistory: boolean;
  /** A call is running. */
  busy: boolean;
  /** Saved calculations of the field. */
  versions: number;
}

export interface Enablement {
  validate: boolean;
  test: boolean;
  approve: boolean;
  save: boolean;
  saveWithoutQueuing: boolean;
  delete: boolean;
  history: boolean;
  editable: boolean;
}

export function enablement(f: EditorFacts): Enablement {
  const working = !f.locked && !f.viewingHistory && !f.busy;
  const save = working && f.formValid && (f.isNew || f.dirty);
  return {
    validate: working,
    // Test needs a successful validation first.
    test: working && f.validated,
    // Approve needs a valid form and a successful validation of the saved calculation; an approved one is done.
    approve: working && !f.isNew && !f.dirty && !f.approved && f.formValid && f.validated,
    save,
    // Creating a calculation queues nothing, so only a saved one offers Save without queuing.
    saveWithoutQueuing: save && !f.isNew,
    delete: working && !f.isNew && f.canDelete,
    history: f.versions >= CALCULATION_HISTORY_MIN_VERSIONS && !f.busy,
    editable: !f.locked && !f.viewingHistory,
  };
}

export type EditorAction = Exclude<keyof Enablement, 'editable'>;

export const DISABLED_REASONS = {
  locked: 'Locked: a recalculation with this calculation is queued',
  history: 'An older version is shown read-only',
  busy: 'Wait until the running call has finished',
  notValidated: 'Validate the algorithm successfully first',
  notSaved: 'Save the calculation first',
  unsavedChanges: 'Save your changes first',
  approved: 'The calculation is approved already',
  formInvalid: 'Correct the settings marked in red first',
  noChanges: 'Nothing has changed since the last save',
  newQueuesNothing: 'A new calculation queues no recalculation: use Save',
  notDeletable: 'An approved calculation cannot be deleted',
  fewVersions: 'There is only one version so far',
} as const;

/**
 * Why each disabled button of the editor is disabled (its tooltip); an enabled button has no entry. The first
 * reason that applies is given, in the order the user can act on them.
 */
export function disabledReasons(f: EditorFacts): Partial<Record<EditorAction, string>> {
  const can = enablement(f);
  const R = DISABLED_REASONS;
  const blocked = f.locked ? R.locked : f.viewingHistory ? R.history : f.busy ? R.busy : undefined;
  const saveReason = blocked ?? (!f.formValid ? R.formInvalid : R.noChanges);
  const reasons: Record<EditorAction, string> = {
    validate: blocked ?? '',
    test: blocked ?? R.notValidated,
    approve:
      blocked ??
      (f.isNew
        ? R.notSaved
        : f.approved
          ? R.approved
          : f.dirty
            ? R.unsavedChanges
            : !f.formValid
              ? R.formInvalid
              : R.notValidated),
    save: saveReason,
    saveWithoutQueuing: f.isNew && !blocked ? R.newQueuesNothing : saveReason,
    delete: blocked ?? (f.isNew ? R.notSaved : R.notDeletable),
    history: f.busy ? R.busy : R.fewVersions,
  };
  const out: Partial<Record<EditorAction, string>> = {};
  for (const action of Object.keys(reasons) as EditorAction[])
    if (!can[action]) out[action] = reasons[action];
  return out;
}

/** The part of the form a validation result belongs to: a change here needs a new validation. */
export function validationKey(v: {
  transformAlgorithm: string;
  inputIds: readonly string[];
  outputType?: string | null;
  algorithmSecondsSpan?: string | number | null;
}): string {
  return JSON.stringify([
    v.transformAlgorithm,
    [...v.inputIds],
    v.outputType ?? null,
    v.algorithmSecondsSpan ?? null,
  ]);
}

/** Default test data: two samples an hour apart, ending at the start of the current UTC hour. */
export function defaultTestTimestamps(now = new Date()): [string, string] {
  const hour = Math.floor(now.getTime() / 3_600_000) * 3_600_000;
  return [new Date(hour - 3_600_000).toISOString(), new Date(hour).toISOString()];
}

/** A CodeMirror document offset for a 1-based line and character, clamped into the document. */
export function offsetAt(lines: readonly string[], line: number, character: number): number {
  const l = Math.min(Math.max(line, 1), Math.max(lines.length, 1));
  let offset = 0;
  for (let i = 0; i < l - 1; i++) offset += lines[i]!.length + 1;
  const text = lines[l - 1] ?? '';
  return offset + Math.min(Math.max(character - 1, 0), text.length);
}
