import { useMemo, useState } from 'react';
import { Alert, Box, Divider, Paper, Skeleton, Stack, Typography } from '@mui/material';
import LockIcon from '@mui/icons-material/Lock';
import { MESSAGES, versionLabel } from '@portal/contracts/rules';
import { validateCalculationSettings } from '@portal/contracts/forms';
import type { OutputType, ValidationResult } from '@portal/contracts/calculations';
import { AlgorithmPanel } from './AlgorithmPanel';
import { bodyOf, formOf, type CalculationKind, type FormValues, type Mode } from './calculation-form';
import { useCalculations, type CalculationTarget } from './calculations-api';
import { DeleteDialog, DraftDialog } from './EditorDialogs';
import { defaultTestTimestamps, disabledReasons, enablement, validationKey } from './enablement';
import { OutputPanel, type CalculationOutput } from './OutputPanel';
import { SettingsPanel, type InputOption } from './SettingsPanel';
import {
  DEFAULT_CONSTANTS,
  TestDataEditor,
  toConstants,
  toInputData,
  type ConstantsForm,
  type TestRow,
} from './TestDataEditor';
import { useCalculationActions } from './use-calculation-actions';
import { ValidityDialog } from './ValidityDialog';
import { HistoryNotice, VersionsPanel } from './VersionsPanel';

export type { InputOption };

export interface CalculationEditorProps {
  kind: CalculationKind;
  facilityId?: string;
  measurementFieldId?: string;
  reportId?: string;
  reportFieldId?: string;
  /** What the algorithm may read: channels and measurement fields (measurement field), measurement fields (report field). */
  inputOptions: InputOption[];
  /** Output type of a new measurement field calculation (the field's data type). */
  defaultOutputType?: OutputType;
}

/**
 * The one calculation editor, for measurement field and report field calculations (spec part 2, sections 2 and 4):
 * the versions heading, the settings, the algorithm with its actions and output, and the test data.
 */
export function CalculationEditor(props: CalculationEditorProps) {
  const { kind, inputOptions } = props;
  const defaultOutputType = props.defaultOutputType ?? 'Double';
  const target = useMemo<CalculationTarget | undefined>(() => {
    if (kind === 'measurement-field')
      return props.facilityId && props.measurementFieldId
        ? { kind, facilityId: props.facilityId, measurementFieldId: props.measurementFieldId }
        : undefined;
    return props.reportId && props.reportFieldId
      ? { kind, reportId: props.reportId, reportFieldId: props.reportFieldId }
      : undefined;
  }, [kind, props.facilityId, props.measurementFieldId, props.reportId, props.reportFieldId]);
  const calculations = useCalculations(target);
  const list = useMemo(() => calculations.data ?? [], [calculations.data]);

  const [mode, setMode] = useState<Mode>({ type: 'current' });
  const selected =
    mode.type === 'current'
      ? list[0]
      : mode.type === 'history'
        ? list.find((c) => c.id === mode.id)
        : undefined;
  const isNew = mode.type === 'new' || (mode.type === 'current' && list.length === 0);
  const viewingHistory = mode.type === 'history' && selected !== undefined && selected.id !== list[0]?.id;
  const initialForm =
    mode.type === 'new' ? formOf(mode.from, defaultOutputType) : formOf(selected, defaultOutputType);
  const sourceKey = `${mode.type}:${mode.type === 'new' ? (mode.from?.id ?? '') : (selected?.id ?? '')}:${selected?.updatedOn ?? ''}`;

  // The form follows its source (a saved calculation, a restored one, a new one) and is the user's in between.
  const [formState, setFormState] = useState({ key: sourceKey, form: initialForm });
  if (formState.key !== sourceKey) setFormState({ key: sourceKey, form: initialForm });
  const form = formState.key === sourceKey ? formState.form : initialForm;
  const setForm = (patch: Partial<FormValues>) =>
    setFormState({ key: sourceKey, form: { ...form, ...patch } });

  const [validation, setValidation] = useState<{ key: string; result: ValidationResult } | null>(null);
  const [output, setOutput] = useState<CalculationOutput | null>(null);
  const [approveOpen, setApproveOpen] = useState(false);
  const [deleteOpen, setDeleteOpen] = useState(false);
  const [draftOpen, setDraftOpen] = useState(false);
  const [rows, setRows] = useState<TestRow[]>(() =>
    defaultTestTimestamps().map((timestamp) => ({ timestamp, values: {} })),
  );
  const [constants, setConstants] = useState<ConstantsForm>(DEFAULT_CONSTANTS);

  const actions = useCalculationActions({
    validated: (key, result) => {
      setValidation({ key, result });
      setOutput({ errors: result.errors, results: [] });
    },
    tested: (result) => setOutput({ errors: result.errors, results: result.results }),
    needsDraft: () => setDraftOpen(true),
    saved: () => setMode({ type: 'current' }),
    savedAndRefreshed: () => setDraftOpen(false),
    approved: () => {
      setApproveOpen(false);
      setMode({ type: 'current' });
    },
    // Afterwards a fresh new calculation.
    deleted: () => {
      setDeleteOpen(false);
      setMode({ type: 'new' });
    },
    // The notification says the spec's text; why the server refused shows in the output.
    refused: (message) => setOutput({ errors: [{ message, startLine: 0, startCharacter: 0 }], results: [] }),
  });
  const busy = actions.busy;

  const optionById = useMemo(() => new Map(inputOptions.map((o) => [o.id, o])), [inputOptions]);
  const inputNames = useMemo(
    () => form.inputIds.map((id) => optionById.get(id)?.name).filter((n): n is string => Boolean(n)),
    [form.inputIds, optionById],
  );

  const settingsErrors = validateCalculationSettings({
    comment: form.comment,
    documentation: form.documentation,
    requiredSampleIntervalInSeconds:
      kind === 'measurement-field' ? form.requiredSampleIntervalInSeconds : null,
    preloadIntervalInSeconds: kind === 'measurement-field' ? form.preloadIntervalInSeconds : null,
    inputIds: form.inputIds,
    qualityScore: form.qualityScore,
  });
  const spanError =
    kind === 'report-field' &&
    !(Number.isInteger(Number(form.algorithmSecondsSpan)) && Number(form.algorithmSecondsSpan) > 0)
      ? 'Must be a whole number of seconds above 0'
      : undefined;
  const formValid = Object.keys(settingsErrors).length === 0 && !spanError;

  const currentKey = validationKey({
    ...form,
    outputType: kind === 'measurement-field' ? form.outputType : null,
    algorithmSecondsSpan: kind === 'report-field' ? form.algorithmSecondsSpan : null,
  });
  const validated = validation?.key === currentKey && validation.result.success !== null;
  const savedForm = selected ? formOf(selected, defaultOutputType) : undefined;
  const dirty =
    !isNew &&
    savedForm !== undefined &&
    JSON.stringify(bodyOf(form, kind)) !== JSON.stringify(bodyOf(savedForm, kind));
  const locked = !isNew && Boolean(selected?.locked);
  const facts = {
    isNew,
    locked,
    approved: !isNew && Boolean(selected?.approvedOn),
    canDelete: Boolean(selected?.canDelete),
    dirty,
    formValid,
    validated,
    viewingHistory,
    busy,
    versions: list.length,
  };
  const can = enablement(facts);
  const why = disabledReasons(facts);

  if (!target) return <Alert severity="info">Choose a field to edit its calculation.</Alert>;
  if (calculations.isError) {
    return (
      <Alert severity="error">
        {kind === 'report-field' ? MESSAGES.CALCULATIONS_NOT_FOUND : MESSAGES.DEFAULT_ERROR}
      </Alert>
    );
  }
  if (calculations.isPending) return <Skeleton variant="rounded" height={320} />;

  const algorithm = {
    transformAlgorithm: form.transformAlgorithm,
    inputIds: form.inputIds,
    outputType: kind === 'measurement-field' ? form.outputType : undefined,
    algorithmSecondsSpan: Number(form.algorithmSecondsSpan) || 3600,
    calculationId: isNew ? undefined : selected?.id,
  };
  const call = { target, algorithm, key: currentKey };
  const store = (recalculate: boolean) =>
    actions.save.mutate({
      ...call,
      id: isNew ? undefined : selected?.id,
      body: bodyOf(form, kind),
      recalculate,
    });

  const errors = output?.errors ?? [];
  const shown =
    isNew || !selected
      ? {
          version: mode.type === 'new' && list.length ? Math.max(...list.map((c) => c.version)) + 1 : 1,
          revision: 0,
        }
      : selected;

  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid="calculation-editor">
      <VersionsPanel
        list={list}
        selected={selected}
        isNew={isNew}
        shown={shown}
        canOpenHistory={can.history}
        whyNoHistory={why.history}
        onMode={setMode}
      />
      {viewingHistory && <HistoryNotice shown={selected} onMode={setMode} />}

      <Box sx={{ position: 'relative' }}>
        {locked && (
          <Box
            data-testid="locked-overlay"
            sx={{
              position: 'absolute',
              inset: 0,
              zIndex: 2,
              bgcolor: 'rgba(255,255,255,0.7)',
              display: 'flex',
              alignItems: 'center',
              justifyContent: 'center',
              gap: 1,
            }}
          >
            <LockIcon color="action" />
            <Typography>Locked: a recalculation with this calculation is queued.</Typography>
          </Box>
        )}
        <Stack direction={{ xs: 'column', lg: 'row' }} spacing={2}>
          <SettingsPanel
            kind={kind}
            form={form}
            onChange={setForm}
            errors={settingsErrors}
            spanError={spanError}
            editable={can.editable}
            inputOptions={inputOptions}
            optionById={optionById}
          />
          <Box sx={{ flexGrow: 1, minWidth: 0 }}>
            <AlgorithmPanel
              algorithm={form.transformAlgorithm}
              onAlgorithm={(transformAlgorithm) => setForm({ transformAlgorithm })}
              inputNames={inputNames}
              errors={errors}
              can={can}
              why={why}
              onValidate={() => actions.validate.mutate(call)}
              onTest={() =>
                actions.test.mutate({
                  ...call,
                  data: { inputData: toInputData(rows, inputNames), constants: toConstants(constants) },
                })
              }
              onApprove={() => setApproveOpen(true)}
              onDelete={() => setDeleteOpen(true)}
              onSave={store}
            />
            <OutputPanel output={output} successText={validation?.result.success ?? ''} />
          </Box>
        </Stack>
        <Divider sx={{ my: 2 }} />
        <TestDataEditor
          rows={rows}
          onRows={setRows}
          inputNames={inputNames}
          constants={constants}
          onConstants={setConstants}
          disabled={locked}
        />
      </Box>

      <ValidityDialog
        open={approveOpen}
        onClose={() => setApproveOpen(false)}
        onConfirm={(validity) => {
          if (selected) actions.approve.mutate({ target, id: selected.id, validity });
        }}
        busy={busy}
      />
      <DraftDialog
        open={draftOpen}
        isNew={isNew}
        firstError={errors[0]}
        busy={busy}
        onClose={() => setDraftOpen(false)}
        onSaveDraft={() => store(false)}
      />
      <DeleteDialog
        open={deleteOpen}
        version={selected ? versionLabel(selected.version, selected.revision) : ''}
        busy={busy}
        onClose={() => setDeleteOpen(false)}
        onDelete={() => {
          if (selected) actions.remove.mutate({ target, id: selected.id });
        }}
      />
    </Paper>
  );
}
