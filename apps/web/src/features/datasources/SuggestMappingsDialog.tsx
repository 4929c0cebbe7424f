import { useEffect, useMemo, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  FormControlLabel,
  LinearProgress,
  List,
  ListItem,
  ListItemText,
  MenuItem,
  Select,
  Stack,
  Switch,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import type { DataSource, DataSourceChannel, SuggestedMappings } from '@portal/contracts/datasources';
import { DIALOG_WIDTHS, MESSAGES } from '@portal/contracts/rules';
import { useNotify } from '../../lib/notifications';
import { useApplyMappings, useSuggestedMappings } from './channels-api';
import {
  acceptAll,
  applySummary,
  changeColumn,
  changedChoices,
  initialChoices,
  mappingListAfter,
  removedMappings,
  restoreList,
  setAccepted,
  type MappingChoice,
} from './suggestions';
import { FormDialog } from '../../ui/dialogs/FormDialog';

const NONE = '';

function ConfidenceChip({ confidence, threshold }: { confidence: number | null; threshold: number }) {
  if (confidence === null) return <Chip size="small" variant="outlined" label="No match" />;
  const percent = `${Math.round(confidence * 100)} %`;
  return confidence >= threshold ? (
    <Chip size="small" color="success" label={percent} />
  ) : (
    <Chip size="small" color="warning" variant="outlined" label={percent} />
  );
}

interface RowProps {
  choice: MappingChoice;
  result: SuggestedMappings;
  reasons: string[];
  onColumn(column: string | null): void;
  onAccepted(accepted: boolean): void;
}

/** The pieces of a row: the field with why, the column select with its unit, the confidence and the accept switch. */
function rowParts({ choice, result, reasons, onColumn, onAccepted }: RowProps) {
  const unit = result.columns.find((c) => c.channel === choice.column)?.unit;
  const changed = choice.column !== choice.proposed;
  return {
    field: (
      <Typography variant="body2" sx={{ fontWeight: 600, wordBreak: 'break-word' }}>
        {choice.field}
      </Typography>
    ),
    why: changed ? (
      <Typography variant="caption" color="text.secondary" component="div">
        {choice.proposed ? `Changed from ${choice.proposed}` : 'Chosen by you'}
      </Typography>
    ) : (
      reasons.map((r) => (
        <Typography key={r} variant="caption" color="text.secondary" component="div">
          {r}
        </Typography>
      ))
    ),
    column: (
      <>
        <Select
          size="small"
          fullWidth
          displayEmpty
          value={choice.column ?? NONE}
          onChange={(e) => onColumn(e.target.value === NONE ? null : e.target.value)}
          inputProps={{ 'aria-label': `Column for ${choice.field}` }}
        >
          <MenuItem value={NONE}>
            <em>No column</em>
          </MenuItem>
          {result.columns.map((c) => (
            <MenuItem key={c.channel} value={c.channel}>
              {c.channel}
            </MenuItem>
          ))}
        </Select>
        {unit && (
          <Typography variant="caption" color="text.secondary">
            Unit: {unit}
          </Typography>
        )}
      </>
    ),
    confidence: (
      <ConfidenceChip confidence={changed ? null : choice.confidence} threshold={result.acceptConfidence} />
    ),
    accept: (
      <Switch
        checked={choice.accepted}
        disabled={choice.column === null}
        onChange={(e) => onAccepted(e.target.checked)}
        slotProps={{ input: { 'aria-label': `Accept ${choice.field}` } }}
      />
    ),
  };
}

function ProposalRow(props: RowProps) {
  const parts = rowParts(props);
  return (
    <TableRow data-testid={`suggestion-${props.choice.field}`}>
      <TableCell sx={{ verticalAlign: 'top' }}>
        {parts.field}
        {parts.why}
      </TableCell>
      <TableCell sx={{ verticalAlign: 'top', minWidth: 140 }}>{parts.column}</TableCell>
      <TableCell sx={{ verticalAlign: 'top' }}>{parts.confidence}</TableCell>
      <TableCell sx={{ verticalAlign: 'top' }} padding="checkbox">
        {parts.accept}
      </TableCell>
    </TableRow>
  );
}

/** On a phone, a row is a card: field, confidence and switch on a line, the column under them, then why. */
function ProposalCard(props: RowProps) {
  const parts = rowParts(props);
  return (
    <Box
      component="li"
      data-testid={`suggestion-${props.choice.field}`}
      sx={{ listStyle: 'none', py: 1, borderBottom: 1, borderColor: 'divider' }}
    >
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <Box sx={{ flex: 1, minWidth: 0 }}>{parts.field}</Box>
        {parts.confidence}
        {parts.accept}
      </Stack>
      <Box sx={{ my: 0.5 }}>{parts.column}</Box>
      {parts.why}
    </Box>
  );
}

/**
 * Asked before Apply removes mappings: it names each one (its name and column); Cancel goes back to the suggestions
 * with nothing changed.
 */
function RemoveMappingsDialog({
  dataSourceName,
  fileName,
  mappings,
  busy,
  onConfirm,
  onCancel,
}: {
  dataSourceName: string;
  fileName: string;
  mappings: DataSourceChannel[];
  busy: boolean;
  onConfirm(): void;
  onCancel(): void;
}) {
  return (
    <Dialog
      open
      onClose={onCancel}
      fullWidth
      maxWidth={false}
      slotProps={{ paper: { sx: { maxWidth: DIALOG_WIDTHS.normal } } }}
      aria-labelledby="remove-mappings-title"
      data-testid="remove-mappings-confirmation"
    >
      <DialogTitle id="remove-mappings-title">Remove {mappings.length} mapping(s)?</DialogTitle>
      <DialogContent>
        <DialogContentText>
          Applying also removes these mappings of {dataSourceName}: no calculation reads them and their
          columns are not in {fileName}.
        </DialogContentText>
        {/* A long list scrolls by itself; focusable, so that a keyboard scrolls it too. */}
        <List
          dense
          aria-label="Mappings that would be removed"
          tabIndex={0}
          sx={{ maxHeight: 320, overflow: 'auto' }}
        >
          {mappings.map((m) => (
            <ListItem key={m.id} disableGutters>
              <ListItemText
                primary={m.name}
                secondary={`Column ${m.source}`}
                slotProps={{ primary: { sx: { wordBreak: 'break-word' } } }}
              />
            </ListItem>
          ))}
        </List>
        <DialogContentText variant="body2">You can undo this right after applying.</DialogContentText>
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        <Button onClick={onCancel}>Cancel</Button>
        <Button color="error" variant="contained" disabled={busy} onClick={onConfirm}>
          Remove and apply
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * Suggest mappings: every field the ship's calculations read, with the column proposed from the sample (or an
 * uploaded) file, accepted, changed or rejected row by row or all at once, applied in one call. Apply asks first
 * when it would remove mappings, naming them, and the notification after it offers Undo: the mappings as they were,
 * put back through the same call (audited like any change).
 */
export function SuggestMappingsDialog({
  facilityId,
  dataSource,
  fileId,
  onClose,
}: {
  facilityId: string;
  dataSource: DataSource;
  fileId?: string;
  onClose(): void;
}) {
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const suggestions = useSuggestedMappings(dataSource.id, fileId);
  const apply = useApplyMappings(facilityId);
  const notify = useNotify();
  const [choices, setChoices] = useState<MappingChoice[]>([]);
  const [removeUnused, setRemoveUnused] = useState(true);
  const [remember, setRemember] = useState(false);
  const result = suggestions.data;
  useEffect(() => {
    if (result) setChoices(initialChoices(result));
  }, [result]);
  const reasonsOf = useMemo(
    () => new Map((result?.proposals ?? []).map((p) => [p.field, p.reasons])),
    [result],
  );
  const list = result ? mappingListAfter(dataSource.channels, result, choices, removeUnused) : [];
  const changed = changedChoices(choices);
  const removable = result?.mappingsWithoutColumn.filter((m) => !m.readByCalculation) ?? [];
  const rowProps = (choice: MappingChoice): RowProps => ({
    choice,
    result: result!, // rows exist only once the result is there
    reasons: reasonsOf.get(choice.field) ?? [],
    onColumn: (column) => setChoices((cs) => changeColumn(cs, choice.field, column)),
    onAccepted: (accepted) => setChoices((cs) => setAccepted(cs, choice.field, accepted)),
  });

  const removing = removedMappings(dataSource.channels, list);
  const [confirming, setConfirming] = useState(false);

  /** Undo: the mappings as they were before Apply, ids included (removed ones come back with theirs). */
  const undo = (dataSourceId: string, previous: DataSourceChannel[]) =>
    apply
      .mutateAsync({ dataSourceId, list: restoreList(previous) })
      .then(() => notify.success('The previous mappings were restored'))
      .catch((e: unknown) => notify.error(undefined, e));

  const send = () => {
    if (!result) return;
    const previous = dataSource.channels;
    const summary = applySummary(previous, list);
    apply.mutate(
      {
        dataSourceId: dataSource.id,
        list,
        aliases: remember
          ? changed.map((c) => ({ organizationId: result.organizationId, field: c.field, alias: c.column! }))
          : [],
      },
      {
        onSuccess: () => {
          // The usual 5 s (longer while the pointer rests on it): the removal was confirmed by name already.
          notify.success(`${MESSAGES.DEFAULT_SUCCESS}. ${summary}`, {
            action: { label: 'Undo', onClick: () => void undo(dataSource.id, previous) },
          });
          onClose();
        },
        onError: (e) => {
          setConfirming(false);
          notify.error(undefined, e);
        },
      },
    );
  };
  // Nothing is removed without asking: Apply names the mappings it would remove and waits for a yes.
  const onApply = () => (removing.length > 0 ? setConfirming(true) : send());

  return (
    <FormDialog
      title={`Suggest mappings for ${dataSource.name}`}
      width="wide"
      onClose={onClose}
      submitLabel="Apply"
      onSubmit={onApply}
      invalid={!result}
      busy={apply.isPending}
      actionsSx={{ flexWrap: 'wrap', gap: 1 }}
      extraActions={
        <Button disabled={!result} onClick={() => setChoices((cs) => acceptAll(cs))}>
          Accept all
        </Button>
      }
    >
      {suggestions.isLoading && <LinearProgress aria-label="Reading the file's columns" />}
      {suggestions.isError && (
        <Alert severity="error">
          {suggestions.error instanceof Error
            ? suggestions.error.message
            : 'Something went wrong! Please try again'}
        </Alert>
      )}
      {result && (
        <Stack spacing={2}>
          <DialogContentText>
            Columns of {result.fileName} proposed for the fields the calculations read. Accept, change or
            reject each, then apply them together.
          </DialogContentText>
          {phone ? (
            <Box component="ul" aria-label="Suggested mappings" sx={{ m: 0, p: 0 }}>
              {choices.map((choice) => (
                <ProposalCard key={choice.field} {...rowProps(choice)} />
              ))}
            </Box>
          ) : (
            <Table size="small" aria-label="Suggested mappings">
              <TableHead>
                <TableRow>
                  <TableCell>Field</TableCell>
                  <TableCell>Column</TableCell>
                  <TableCell>Confidence</TableCell>
                  <TableCell padding="checkbox">Accept</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {choices.map((choice) => (
                  <ProposalRow key={choice.field} {...rowProps(choice)} />
                ))}
              </TableBody>
            </Table>
          )}
          {result.unmatchedFields.length > 0 && (
            <Alert severity="warning">
              No column found for {result.unmatchedFields.map((f) => f.field).join(', ')}.
            </Alert>
          )}
          {result.unmappedColumns.length > 0 && (
            <Typography variant="body2" color="text.secondary">
              Columns not mapped: {result.unmappedColumns.map((c) => c.channel).join(', ')}
            </Typography>
          )}
          {removable.length > 0 && (
            <FormControlLabel
              control={
                <Checkbox checked={removeUnused} onChange={(e) => setRemoveUnused(e.target.checked)} />
              }
              label={`Remove the ${removable.length} mappings no calculation reads and whose column is not in this file (${removable
                .map((m) => m.name)
                .join(', ')})`}
            />
          )}
          {changed.length > 0 && (
            <FormControlLabel
              control={<Checkbox checked={remember} onChange={(e) => setRemember(e.target.checked)} />}
              label={`Remember the columns you chose (${changed
                .map((c) => c.column)
                .join(', ')}) as your organization's names of these fields`}
            />
          )}
          <Typography variant="body2">{applySummary(dataSource.channels, list)}</Typography>
        </Stack>
      )}
      {confirming && result && (
        <RemoveMappingsDialog
          dataSourceName={dataSource.name}
          fileName={result.fileName}
          mappings={removing}
          busy={apply.isPending}
          onConfirm={send}
          onCancel={() => setConfirming(false)}
        />
      )}
    </FormDialog>
  );
}
