import { useState } from 'react';
import {
  FormControl,
  FormControlLabel,
  FormLabel,
  MenuItem,
  Radio,
  RadioGroup,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { fieldErrors } from '@portal/contracts/forms';
import {
  FINDING_KIND_NAMES,
  FINDING_KINDS,
  findingInputSchema,
  misstatementOf,
  type FindingKind,
  type ShipFigures,
  type SuggestedMisstatement,
} from '@portal/contracts/verification';
import { useNotify } from '../../lib/notifications';
import { FormDialog } from '../../ui/dialogs/FormDialog';
import { percent } from './display';
import { failureMessage, useRecordFinding } from './verification-api';

const NO_SHIP = '';

/** A number field's text as a number, or null when empty; NaN when it is no number. */
const numberOf = (text: string) => (text.trim() === '' ? null : Number(text.replace(',', '.')));

/**
 * "Record finding": a non-conformity or a misstatement of the year, on a ship or on the organization's monitoring,
 * with the figure, the evidence it is measured against and, for a misstatement, both values: the difference and
 * whether it is above 5 % show as they are typed. A suggestion of the reconciliation fills it in.
 */
export function FindingDialog({
  organizationId,
  year,
  ships,
  suggestion,
  onClose,
}: {
  organizationId: string;
  year: number;
  ships: readonly ShipFigures[];
  suggestion: SuggestedMisstatement | null;
  onClose(): void;
}) {
  const notify = useNotify();
  const record = useRecordFinding(organizationId, year);
  const [kind, setKind] = useState<FindingKind>(suggestion ? 'misstatement' : 'non-conformity');
  const [facilityId, setFacilityId] = useState(suggestion?.facilityId ?? NO_SHIP);
  const [description, setDescription] = useState(
    suggestion
      ? `The flow meters' ${suggestion.figure.split(' burnt')[0]} differs from the bunker delivery notes and soundings by ${percent(suggestion.differencePercent)}.`
      : '',
  );
  const [figure, setFigure] = useState(suggestion?.figure ?? '');
  const [evidence, setEvidence] = useState(suggestion?.evidence ?? '');
  const [reported, setReported] = useState(suggestion ? String(round(suggestion.reportedValue)) : '');
  const [evidenceValue, setEvidenceValue] = useState(
    suggestion ? String(round(suggestion.evidenceValue)) : '',
  );
  const [touched, setTouched] = useState(false);

  const misstatement = kind === 'misstatement';
  const reportedNumber = misstatement ? numberOf(reported) : null;
  const evidenceNumber = misstatement ? numberOf(evidenceValue) : null;
  const body = {
    facilityId: facilityId === NO_SHIP ? null : facilityId,
    kind,
    description,
    figure: figure.trim() === '' ? null : figure,
    evidence: evidence.trim() === '' ? null : evidence,
    reportedValue: reportedNumber,
    evidenceValue: evidenceNumber,
  };
  const errors: Record<string, string | undefined> = fieldErrors(findingInputSchema, body);
  if (misstatement) {
    if (Number.isNaN(reportedNumber) || reportedNumber === null)
      errors.reportedValue = 'Give the figure as reported (t)';
    if (Number.isNaN(evidenceNumber) || evidenceNumber === null)
      errors.evidenceValue = 'Give the figure the evidence supports (t)';
  }
  const invalid = Object.values(errors).some(Boolean);
  const show = (field: string) => (touched ? errors[field] : undefined);
  const difference = misstatementOf(
    Number.isFinite(reportedNumber) ? reportedNumber : null,
    Number.isFinite(evidenceNumber) ? evidenceNumber : null,
  );

  const submit = () => {
    setTouched(true);
    if (invalid) return;
    record.mutate(body, {
      onSuccess: () => {
        notify.success('The finding was recorded');
        onClose();
      },
    });
  };

  return (
    <FormDialog
      title="Record finding"
      width="wide"
      onClose={onClose}
      submitLabel="Record"
      onSubmit={submit}
      busy={record.isPending}
      error={
        record.isError
          ? (failureMessage(record.error) ?? 'Something went wrong! Please try again')
          : undefined
      }
      data-testid="finding-dialog"
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        <FormControl>
          <FormLabel id="finding-kind">Kind</FormLabel>
          <RadioGroup
            row
            aria-labelledby="finding-kind"
            value={kind}
            onChange={(event) => setKind(event.target.value as FindingKind)}
          >
            {FINDING_KINDS.map((k) => (
              <FormControlLabel key={k} value={k} control={<Radio />} label={FINDING_KIND_NAMES[k]} />
            ))}
          </RadioGroup>
        </FormControl>
        <TextField
          select
          label="Ship"
          value={facilityId}
          onChange={(event) => setFacilityId(event.target.value)}
        >
          <MenuItem value={NO_SHIP}>The organization&apos;s monitoring (no one ship)</MenuItem>
          {ships.map((s) => (
            <MenuItem key={s.facilityId} value={s.facilityId}>
              {s.name}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          label="Finding"
          value={description}
          onChange={(event) => setDescription(event.target.value)}
          multiline
          minRows={2}
          required
          error={Boolean(show('description'))}
          helperText={show('description')}
        />
        <TextField
          label="Figure concerned"
          value={figure}
          onChange={(event) => setFigure(event.target.value)}
          error={Boolean(show('figure'))}
          helperText={show('figure')}
        />
        <TextField
          label="Evidence referred to"
          value={evidence}
          onChange={(event) => setEvidence(event.target.value)}
          error={Boolean(show('evidence'))}
          helperText={show('evidence') ?? 'A bunker delivery note, a sounding, a record book entry, a file'}
        />
        {misstatement && (
          <>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextField
                label="As reported (t)"
                value={reported}
                onChange={(event) => setReported(event.target.value)}
                inputMode="decimal"
                fullWidth
                error={Boolean(show('reportedValue'))}
                helperText={show('reportedValue') ?? 'The ledger’s figure (flow meters)'}
              />
              <TextField
                label="As the evidence gives (t)"
                value={evidenceValue}
                onChange={(event) => setEvidenceValue(event.target.value)}
                inputMode="decimal"
                fullWidth
                error={Boolean(show('evidenceValue'))}
                helperText={show('evidenceValue') ?? 'Bunker delivery notes and soundings'}
              />
            </Stack>
            <Typography
              variant="body2"
              role="status"
              color={difference.aboveThreshold ? 'error' : 'text.secondary'}
              data-testid="finding-difference"
            >
              Difference: {percent(difference.differencePercent)}
              {difference.aboveThreshold ? ' — above 5 %, material' : ''}
            </Typography>
          </>
        )}
      </Stack>
    </FormDialog>
  );
}

const round = (value: number) => Math.round(value * 1000) / 1000;
