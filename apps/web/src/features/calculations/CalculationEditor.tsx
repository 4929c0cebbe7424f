import { useMemo, useState, type ReactElement } from 'react';
import {
  Alert,
  Autocomplete,
  Box,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Divider,
  List,
  ListItem,
  ListItemText,
  Menu,
  MenuItem,
  Paper,
  Rating,
  Skeleton,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import HistoryIcon from '@mui/icons-material/History';
import LockIcon from '@mui/icons-material/Lock';
import { CHANNEL_DATA_TYPES, formatDateTime, MESSAGES, versionLabel } from '@portal/contracts/rules';
import { validateCalculationSettings } from '@portal/contracts/forms';
import type {
  Calculation,
  FormulaErrorDto,
  OutputType,
  ValidationResult,
} from '@portal/contracts/calculations';
import { ApiRequestError } from '../../app/api';
import { useNotify } from '../../app/notifications';
import {
  approveCalculation,
  createCalculation,
  deleteCalculation,
  saveCalculation,
  useCalculations,
  useRefreshAfterChange,
  validateLogic,
  validateSyntax,
  type CalculationBody,
  type CalculationTarget,
} from './calculations-api';
import { defaultTestTimestamps, disabledReasons, enablement, validationKey } from './enablement';
import FormulaCodeEditor from './FormulaCodeEditor';
import {
  DEFAULT_CONSTANTS,
  TestDataEditor,
  toConstants,
  toInputData,
  type ConstantsForm,
  type TestRow,
} from './TestDataEditor';
import { ValidityDialog } from './ValidityDialog';

export interface InputOption {
  id: string;
  name: string;
  group: string;
}

export interface CalculationEditorProps {
  kind: 'measurement-field' | 'report-field';
  facilityId?: string;
  measurementFieldId?: string;
  reportId?: string;
  reportFieldId?: string;
  /** What the algorithm may read: channels and measurement fields (measurement field), measurement fields (report field). */
  inputOptions: InputOption[];
  /** Output type of a new measurement field calculation (the field's data type). */
  defaultOutputType?: OutputType;
}

interface FormValues {
  comment: string;
  documentation: string;
  requiredSampleIntervalInSeconds: string;
  preloadIntervalInSeconds: string;
  inputIds: string[];
  qualityScore: number | null;
  outputType: OutputType;
  algorithmSecondsSpan: string;
  transformAlgorithm: string;
}

type Mode = { type: 'current' } | { type: 'new'; from?: Calculation } | { type: 'history'; id: string };

const text = (n: number | null | undefined) => (n === null || n === undefined ? '' : String(n));

function formOf(calc: Calculation | undefined, defaultOutputType: OutputType): FormValues {
  return {
    comment: calc?.comment ?? '',
    documentation: calc?.documentation ?? '',
    requiredSampleIntervalInSeconds: text(calc ? calc.requiredSampleIntervalInSeconds : 60),
    preloadIntervalInSeconds: text(calc ? calc.preloadIntervalInSeconds : 300),
    inputIds: calc?.inputIds ?? [],
    qualityScore: calc?.qualityScore ?? null,
    outputType: calc && 'outputType' in calc ? calc.outputType : defaultOutputType,
    algorithmSecondsSpan: text(calc && 'algorithmSecondsSpan' in calc ? calc.algorithmSecondsSpan : 3600),
    transformAlgorithm: calc?.transformAlgorithm ?? '',
  };
}

function bodyOf(form: FormValues, kind: CalculationEditorProps['kind']): CalculationBody {
  const n = (s: string) => (s.trim() === '' ? null : Number(s));
  const common = {
    comment: form.comment,
    documentation: form.documentation,
    inputIds: form.inputIds,
    transformAlgorithm: form.transformAlgorithm,
    qualityScore: form.qualityScore,
  };
  return kind === 'measurement-field'
    ? {
        ...common,
        requiredSampleIntervalInSeconds: n(form.requiredSampleIntervalInSeconds),
        preloadIntervalInSeconds: n(form.preloadIntervalInSeconds),
        outputType: form.outputType,
      }
    : { ...common, algorithmSecondsSpan: Number(form.algorithmSecondsSpan) };
}

function stateLabel(calc: Calculation): string {
  switch (calc.state) {
    case 'recalculation-queued':
      return 'Recalculation queued';
    case 'recalculation-requested':
      return calc.approvedOn ? 'Approved, recalculation requested' : 'Draft, recalculation requested';
    case 'approved':
      return 'Approved';
    default:
      return 'Draft';
  }
}

/** A disabled button says why in a tooltip (a disabled button gets no pointer events, so a span carries it). */
function WhyDisabled({ reason, children }: { reason: string | undefined; children: ReactElement }) {
  if (!reason) return children;
  return (
    <Tooltip title={reason} describeChild>
      <span style={{ display: 'inline-flex' }}>{children}</span>
    </Tooltip>
  );
}

const messageOf = (error: unknown, fallback: string) =>
  error instanceof ApiRequestError && error.status < 500 && error.body?.message
    ? error.body.message
    : fallback;

/** The one calculation editor, for measurement field and report field calculations (spec part 2, sections 2 and 4). */
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
  const notify = useNotify();
  const refresh = useRefreshAfterChange();
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
  const [output, setOutput] = useState<{
    errors: FormulaErrorDto[];
    results: ValidationResult['results'];
  } | null>(null);
  const [busy, setBusy] = useState(false);
  const [approveOpen, setApproveOpen] = useState(false);
  const [deleteOpen, setDeleteOpen] = useState(false);
  const [draftOpen, setDraftOpen] = useState(false);
  const [historyAnchor, setHistoryAnchor] = useState<HTMLElement | null>(null);
  const [rows, setRows] = useState<TestRow[]>(() =>
    defaultTestTimestamps().map((timestamp) => ({ timestamp, values: {} })),
  );
  const [constants, setConstants] = useState<ConstantsForm>(DEFAULT_CONSTANTS);

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

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
    } finally {
      setBusy(false);
    }
  };

  const onValidate = () =>
    run(async () => {
      try {
        const result = await validateSyntax(target, algorithm);
        setValidation({ key: currentKey, result });
        setOutput({ errors: result.errors, results: [] });
        if (result.success) notify.success(result.success);
      } catch (error) {
        notify.error(messageOf(error, MESSAGES.DEFAULT_ERROR), error);
      }
    });

  const onTest = () =>
    run(async () => {
      try {
        const result = await validateLogic(target, algorithm, {
          inputData: toInputData(rows, inputNames),
          constants: toConstants(constants),
        });
        setOutput({ errors: result.errors, results: result.results });
        if (result.success) notify.success(result.success);
      } catch (error) {
        notify.error(messageOf(error, MESSAGES.DEFAULT_ERROR), error);
      }
    });

  const store = async (recalculate: boolean) => {
    if (isNew) {
      const created = await createCalculation(target, bodyOf(form, kind));
      notify.success(created.message);
    } else {
      const saved = await saveCalculation(target, selected!.id, bodyOf(form, kind), recalculate);
      notify.success(saved.message);
    }
    setMode({ type: 'current' });
    await refresh();
  };

  /**
   * Save validates first: code with errors is never saved with a recalculation; the user may keep it as a draft
   * (saved without queuing) by choosing so. Save without queuing is that choice already.
   */
  const onSave = (recalculate: boolean) =>
    run(async () => {
      try {
        if (recalculate) {
          const result = await validateSyntax(target, algorithm);
          setValidation({ key: currentKey, result });
          setOutput({ errors: result.errors, results: [] });
          if (result.errors.length) {
            setDraftOpen(true);
            return;
          }
        }
        await store(recalculate);
      } catch (error) {
        notify.error(messageOf(error, MESSAGES.SAVE_ERROR), error);
      }
    });

  const onSaveDraft = () =>
    run(async () => {
      try {
        await store(false);
        setDraftOpen(false);
      } catch (error) {
        notify.error(messageOf(error, MESSAGES.SAVE_ERROR), error);
      }
    });

  const onApprove = (validity: { validFrom: string; validTo: string | null }) =>
    run(async () => {
      try {
        const approved = await approveCalculation(target, selected!.id, validity);
        setApproveOpen(false);
        notify.success(approved.message);
        setMode({ type: 'current' });
        await refresh();
      } catch (error) {
        notify.error(messageOf(error, MESSAGES.DEFAULT_ERROR), error);
      }
    });

  const onDelete = () =>
    run(async () => {
      try {
        await deleteCalculation(target, selected!.id);
        setDeleteOpen(false);
        notify.success();
        // Afterwards a fresh new calculation.
        setMode({ type: 'new' });
        await refresh();
      } catch (error) {
        notify.error(messageOf(error, MESSAGES.DEFAULT_ERROR), error);
      }
    });

  const errors = output?.errors ?? [];
  const shown = isNew
    ? {
        version: mode.type === 'new' && list.length ? Math.max(...list.map((c) => c.version)) + 1 : 1,
        revision: 0,
      }
    : selected!;

  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid="calculation-editor">
      <Stack direction="row" spacing={1} useFlexGap sx={{ mb: 2, alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography variant="h6" component="h3">
          Calculation
        </Typography>
        <Typography variant="body2" color="text.secondary" data-testid="calculation-version">
          Version {versionLabel(shown.version, shown.revision)}
        </Typography>
        {isNew ? (
          <Chip label="NEW" color="secondary" size="small" />
        ) : (
          <Chip
            label={stateLabel(selected!)}
            size="small"
            color={selected!.approvedOn ? 'success' : 'default'}
            variant="outlined"
          />
        )}
        {!isNew && selected?.approvedOn && (
          <Typography variant="caption" color="text.secondary">
            Valid from {formatDateTime(selected.validFrom)}{' '}
            {selected.validTo ? `to ${formatDateTime(selected.validTo)}` : 'until another is approved'}
          </Typography>
        )}
        <Box sx={{ flexGrow: 1 }} />
        <WhyDisabled reason={why.history}>
          <Button
            startIcon={<HistoryIcon />}
            disabled={!can.history}
            onClick={(e) => setHistoryAnchor(e.currentTarget)}
          >
            Versions
          </Button>
        </WhyDisabled>
        <Menu anchorEl={historyAnchor} open={Boolean(historyAnchor)} onClose={() => setHistoryAnchor(null)}>
          {list.map((c, i) => (
            <MenuItem
              key={c.id}
              selected={selected?.id === c.id}
              onClick={() => {
                setHistoryAnchor(null);
                setMode(i === 0 ? { type: 'current' } : { type: 'history', id: c.id });
              }}
            >
              <ListItemText
                primary={`Version ${versionLabel(c.version, c.revision)}${i === 0 ? ' (latest)' : ''}`}
                secondary={`${stateLabel(c)} · ${formatDateTime(c.updatedOn)}`}
              />
            </MenuItem>
          ))}
        </Menu>
      </Stack>

      {viewingHistory && (
        <Alert
          severity="info"
          sx={{ mb: 2 }}
          action={
            <Stack direction="row" spacing={1}>
              <Button size="small" onClick={() => setMode({ type: 'new', from: selected })}>
                Restore as new draft
              </Button>
              <Button size="small" onClick={() => setMode({ type: 'current' })}>
                Back to latest
              </Button>
            </Stack>
          }
        >
          Version {versionLabel(selected!.version, selected!.revision)} is shown read-only.
        </Alert>
      )}

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
          <Stack spacing={2} sx={{ width: { lg: 340 }, flexShrink: 0 }} aria-label="Settings">
            <TextField
              size="small"
              label="Comment"
              value={form.comment}
              disabled={!can.editable}
              onChange={(e) => setForm({ comment: e.target.value })}
            />
            <TextField
              size="small"
              label="Documentation"
              multiline
              minRows={2}
              value={form.documentation}
              disabled={!can.editable}
              onChange={(e) => setForm({ documentation: e.target.value })}
            />
            {kind === 'measurement-field' ? (
              <>
                <TextField
                  size="small"
                  label="Required sample interval (s)"
                  value={form.requiredSampleIntervalInSeconds}
                  disabled={!can.editable}
                  onChange={(e) => setForm({ requiredSampleIntervalInSeconds: e.target.value })}
                  error={Boolean(settingsErrors.requiredSampleIntervalInSeconds)}
                  helperText={settingsErrors.requiredSampleIntervalInSeconds}
                />
                <TextField
                  size="small"
                  label="Preload interval (s)"
                  value={form.preloadIntervalInSeconds}
                  disabled={!can.editable}
                  onChange={(e) => setForm({ preloadIntervalInSeconds: e.target.value })}
                  error={Boolean(settingsErrors.preloadIntervalInSeconds)}
                  helperText={settingsErrors.preloadIntervalInSeconds}
                />
                <TextField
                  size="small"
                  select
                  label="Output type"
                  value={form.outputType}
                  disabled={!can.editable}
                  onChange={(e) => setForm({ outputType: e.target.value as OutputType })}
                >
                  {CHANNEL_DATA_TYPES.map((t) => (
                    <MenuItem key={t} value={t}>
                      {t}
                    </MenuItem>
                  ))}
                </TextField>
              </>
            ) : (
              <TextField
                size="small"
                label="Algorithm span (s)"
                value={form.algorithmSecondsSpan}
                disabled={!can.editable}
                onChange={(e) => setForm({ algorithmSecondsSpan: e.target.value })}
                error={Boolean(spanError)}
                helperText={spanError}
              />
            )}
            <Autocomplete
              multiple
              size="small"
              options={inputOptions}
              groupBy={(o) => o.group}
              getOptionLabel={(o) => o.name}
              isOptionEqualToValue={(a, b) => a.id === b.id}
              value={form.inputIds.map((id) => optionById.get(id) ?? { id, name: id, group: '' })}
              onChange={(_e, value) => setForm({ inputIds: value.map((v) => v.id) })}
              disabled={!can.editable}
              renderInput={(params) => <TextField {...params} label="Inputs" />}
            />
            <Box>
              <Typography variant="caption" color="text.secondary" component="div">
                Quality score
              </Typography>
              <Rating
                name="qualityScore"
                value={form.qualityScore}
                disabled={!can.editable}
                onChange={(_e, value) => setForm({ qualityScore: value })}
              />
            </Box>
          </Stack>

          <Box sx={{ flexGrow: 1, minWidth: 0 }}>
            <Box
              sx={{ border: 1, borderColor: 'divider', borderRadius: 1, overflow: 'hidden' }}
              data-testid="algorithm-editor"
            >
              <FormulaCodeEditor
                value={form.transformAlgorithm}
                onChange={(transformAlgorithm) => setForm({ transformAlgorithm })}
                inputNames={inputNames}
                errors={errors}
                readOnly={!can.editable}
              />
            </Box>
            <Stack direction="row" spacing={1} useFlexGap sx={{ mt: 1.5, flexWrap: 'wrap' }}>
              <WhyDisabled reason={why.validate}>
                <Button variant="outlined" onClick={onValidate} disabled={!can.validate}>
                  Validate
                </Button>
              </WhyDisabled>
              <WhyDisabled reason={why.test}>
                <Button variant="outlined" onClick={onTest} disabled={!can.test}>
                  Test
                </Button>
              </WhyDisabled>
              <WhyDisabled reason={why.approve}>
                <Button
                  variant="outlined"
                  color="success"
                  onClick={() => setApproveOpen(true)}
                  disabled={!can.approve}
                >
                  Approve
                </Button>
              </WhyDisabled>
              <Box sx={{ flexGrow: 1 }} />
              <WhyDisabled reason={why.delete}>
                <Button color="error" onClick={() => setDeleteOpen(true)} disabled={!can.delete}>
                  Delete
                </Button>
              </WhyDisabled>
              <WhyDisabled reason={why.saveWithoutQueuing}>
                <Button onClick={() => onSave(false)} disabled={!can.saveWithoutQueuing}>
                  Save without queuing
                </Button>
              </WhyDisabled>
              <WhyDisabled reason={why.save}>
                <Button variant="contained" onClick={() => onSave(true)} disabled={!can.save}>
                  Save
                </Button>
              </WhyDisabled>
            </Stack>

            <Typography variant="subtitle2" component="h4" sx={{ mt: 2 }}>
              Output
            </Typography>
            <Paper
              variant="outlined"
              sx={{ minHeight: 56, maxHeight: 240, overflow: 'auto', fontFamily: 'monospace', fontSize: 13 }}
              data-testid="calculation-output"
              tabIndex={0}
              role="region"
              aria-label="Output"
            >
              <List dense disablePadding>
                {!output && (
                  <ListItem>
                    <ListItemText secondary="Validate or test to see the result here." />
                  </ListItem>
                )}
                {errors.map((e, i) => (
                  <ListItem key={`e${i}`} sx={{ color: 'error.main' }}>
                    {e.startLine > 0
                      ? `Line ${e.startLine}, character ${e.startCharacter}: ${e.message}`
                      : e.message}
                  </ListItem>
                ))}
                {output && errors.length === 0 && output.results.length === 0 && (
                  <ListItem>{validation?.result.success ?? ''}</ListItem>
                )}
                {output?.results.map((r, i) => (
                  <ListItem key={`r${i}`}>
                    {formatDateTime(r.timestamp)} → {r.value === null ? 'null' : String(r.value)}
                  </ListItem>
                ))}
              </List>
            </Paper>
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
        onConfirm={onApprove}
        busy={busy}
      />
      <Dialog open={draftOpen} onClose={() => setDraftOpen(false)} aria-labelledby="draft-dialog-title">
        <DialogTitle id="draft-dialog-title">The algorithm has errors</DialogTitle>
        <DialogContent>
          <Typography variant="body2" sx={{ mb: 1 }}>
            {isNew
              ? 'It can be saved as a draft only. Fix the errors shown under Output before you approve it.'
              : 'No recalculation can be queued with it. Save it as a draft without queuing, or keep editing and fix the errors shown under Output.'}
          </Typography>
          {errors[0] && (
            <Typography variant="body2" color="error" data-testid="draft-first-error">
              {errors[0].startLine > 0
                ? `Line ${errors[0].startLine}, character ${errors[0].startCharacter}: ${errors[0].message}`
                : errors[0].message}
            </Typography>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setDraftOpen(false)}>Keep editing</Button>
          <Button variant="contained" onClick={onSaveDraft} disabled={busy}>
            Save as draft
          </Button>
        </DialogActions>
      </Dialog>
      <Dialog open={deleteOpen} onClose={() => setDeleteOpen(false)}>
        <DialogTitle>Delete calculation?</DialogTitle>
        <DialogContent>
          Version {selected ? versionLabel(selected.version, selected.revision) : ''} will be deleted.
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setDeleteOpen(false)}>Cancel</Button>
          <Button color="error" variant="contained" onClick={onDelete} disabled={busy}>
            Delete
          </Button>
        </DialogActions>
      </Dialog>
    </Paper>
  );
}
