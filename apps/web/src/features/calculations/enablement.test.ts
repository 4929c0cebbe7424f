import { describe, expect, it } from 'vitest';
import {
  defaultTestTimestamps,
  DISABLED_REASONS,
  disabledReasons,
  enablement,
  offsetAt,
  validationKey,
  type EditorFacts,
} from './enablement';

const saved: EditorFacts = {
  isNew: false,
  locked: false,
  approved: false,
  canDelete: true,
  dirty: false,
  formValid: true,
  validated: false,
  viewingHistory: false,
  busy: false,
  versions: 1,
};

describe('calculation editor enablement', () => {
  it('needs a successful validation before Test and Approve', () => {
    expect(enablement(saved)).toMatchObject({ validate: true, test: false, approve: false });
    expect(enablement({ ...saved, validated: true })).toMatchObject({ test: true, approve: true });
  });

  it('needs a valid form to approve or save', () => {
    const invalid = enablement({ ...saved, validated: true, dirty: true, formValid: false });
    expect(invalid.approve).toBe(false);
    expect(invalid.save).toBe(false);
    expect(enablement({ ...saved, validated: true, formValid: false }).approve).toBe(false);
  });

  it('does not approve an approved calculation, an unsaved one or unsaved changes', () => {
    expect(enablement({ ...saved, validated: true, approved: true }).approve).toBe(false);
    expect(enablement({ ...saved, validated: true, isNew: true }).approve).toBe(false);
    expect(enablement({ ...saved, validated: true, dirty: true }).approve).toBe(false);
  });

  it('saves a new calculation or changes; Save without queuing only for a saved one', () => {
    expect(enablement(saved)).toMatchObject({ save: false, saveWithoutQueuing: false });
    expect(enablement({ ...saved, dirty: true })).toMatchObject({ save: true, saveWithoutQueuing: true });
    expect(enablement({ ...saved, isNew: true })).toMatchObject({
      save: true,
      saveWithoutQueuing: false,
      delete: false,
    });
  });

  it('locks save, validate, test, approve and delete while a recalculation is queued', () => {
    const locked = enablement({ ...saved, locked: true, validated: true, dirty: true });
    expect(locked).toMatchObject({
      validate: false,
      test: false,
      approve: false,
      save: false,
      saveWithoutQueuing: false,
      delete: false,
      editable: false,
    });
  });

  it('deletes only what canDelete allows', () => {
    expect(enablement(saved).delete).toBe(true);
    expect(enablement({ ...saved, canDelete: false }).delete).toBe(false);
  });

  it('shows an older version read-only', () => {
    expect(enablement({ ...saved, viewingHistory: true, dirty: true, validated: true })).toMatchObject({
      editable: false,
      save: false,
      validate: false,
      approve: false,
      delete: false,
    });
  });

  it('enables the version history from 2 versions on', () => {
    expect(enablement(saved).history).toBe(false);
    expect(enablement({ ...saved, versions: 2 }).history).toBe(true);
  });

  it('ties a validation to the algorithm, inputs and output type', () => {
    const base = { transformAlgorithm: 'return A;', inputIds: ['a'], outputType: 'Double' };
    expect(validationKey(base)).toBe(validationKey({ ...base }));
    expect(validationKey(base)).not.toBe(validationKey({ ...base, transformAlgorithm: 'return A ;' }));
    expect(validationKey(base)).not.toBe(validationKey({ ...base, inputIds: ['a', 'b'] }));
    expect(validationKey(base)).not.toBe(validationKey({ ...base, outputType: 'Boolean' }));
  });
});

describe('editor helpers', () => {
  it('defaults the test data to two samples an hour apart', () => {
    const [a, b] = defaultTestTimestamps(new Date('2025-03-04T10:25:00Z'));
    expect([a, b]).toEqual(['2025-03-04T09:00:00.000Z', '2025-03-04T10:00:00.000Z']);
  });

  it('finds the document offset of a 1-based line and character', () => {
    const lines = ['// ratio', 'return SO2PPM / CO2_PCT;'];
    expect(offsetAt(lines, 2, 8)).toBe(9 + 7);
    expect(offsetAt(lines, 1, 1)).toBe(0);
    expect(offsetAt(lines, 9, 99)).toBe(9 + lines[1]!.length);
  });
});

describe('why a button is disabled', () => {
  it('gives no reason for an enabled button', () => {
    const reasons = disabledReasons({ ...saved, validated: true });
    expect(reasons.validate).toBeUndefined();
    expect(reasons.test).toBeUndefined();
    expect(reasons.approve).toBeUndefined();
  });

  it('says Test and Approve need a successful validation', () => {
    expect(disabledReasons(saved)).toMatchObject({
      test: DISABLED_REASONS.notValidated,
      approve: DISABLED_REASONS.notValidated,
    });
  });

  it('says to save first before approving a new calculation or changes', () => {
    expect(disabledReasons({ ...saved, validated: true, isNew: true }).approve).toBe(
      DISABLED_REASONS.notSaved,
    );
    expect(disabledReasons({ ...saved, validated: true, dirty: true }).approve).toBe(
      DISABLED_REASONS.unsavedChanges,
    );
    expect(disabledReasons({ ...saved, validated: true, approved: true }).approve).toBe(
      DISABLED_REASONS.approved,
    );
  });

  it('names the lock, the read-only history and the settings errors', () => {
    const locked = disabledReasons({ ...saved, locked: true, dirty: true });
    expect(locked.save).toBe(DISABLED_REASONS.locked);
    expect(locked.validate).toBe(DISABLED_REASONS.locked);
    expect(disabledReasons({ ...saved, viewingHistory: true }).test).toBe(DISABLED_REASONS.history);
    expect(disabledReasons({ ...saved, dirty: true, formValid: false }).save).toBe(
      DISABLED_REASONS.formInvalid,
    );
    expect(disabledReasons(saved).save).toBe(DISABLED_REASONS.noChanges);
    expect(disabledReasons({ ...saved, isNew: true }).saveWithoutQueuing).toBe(
      DISABLED_REASONS.newQueuesNothing,
    );
  });
});
