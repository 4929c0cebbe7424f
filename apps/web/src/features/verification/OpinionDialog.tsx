import { useState } from 'react';
import {
  FormControl,
  FormControlLabel,
  FormLabel,
  Radio,
  RadioGroup,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { fieldErrors } from '@portal/contracts/forms';
import { OPINION_NAMES, OPINIONS, opinionInputSchema, type Opinion } from '@portal/contracts/verification';
import { useNotify } from '../../lib/notifications';
import { FormDialog } from '../../ui/dialogs/FormDialog';
import { failureMessage, useRecordOpinion } from './verification-api';

/**
 * "Record opinion": verified as satisfactory, satisfactory with comments, or not verified, on the year's figures as
 * they are now (their version); comments are required but for a plain satisfactory opinion. Once recorded, the
 * opinion is chained to the one before and fixes the figures: a later change shows as a new version.
 */
export function OpinionDialog({
  organizationId,
  year,
  version,
  findings,
  onClose,
}: {
  organizationId: string;
  year: number;
  version: number;
  findings: number;
  onClose(): void;
}) {
  const notify = useNotify();
  const record = useRecordOpinion(organizationId, year);
  const [opinion, setOpinion] = useState<Opinion>(findings ? 'satisfactory-with-comments' : 'satisfactory');
  const [comment, setComment] = useState('');
  const [touched, setTouched] = useState(false);
  const errors: Record<string, string | undefined> = fieldErrors(opinionInputSchema, { opinion, comment });
  const invalid = Object.values(errors).some(Boolean);

  const submit = () => {
    setTouched(true);
    if (invalid) return;
    record.mutate(
      { opinion, comment },
      {
        onSuccess: () => {
          notify.success(`The opinion on ${year} was recorded: the year is locked`);
          onClose();
        },
      },
    );
  };

  return (
    <FormDialog
      title={`Opinion on ${year}`}
      onClose={onClose}
      submitLabel="Record opinion"
      onSubmit={submit}
      busy={record.isPending}
      error={
        record.isError
          ? (failureMessage(record.error) ?? 'Something went wrong! Please try again')
          : undefined
      }
      data-testid="opinion-dialog"
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        <Typography variant="body2" color="text.secondary">
          On version {version} of the figures, with {findings} finding{findings === 1 ? '' : 's'}. The opinion
          cannot be changed afterwards: a later opinion follows it.
        </Typography>
        <FormControl>
          <FormLabel id="opinion-kind">Opinion</FormLabel>
          <RadioGroup
            aria-labelledby="opinion-kind"
            value={opinion}
            onChange={(e) => setOpinion(e.target.value as Opinion)}
          >
            {OPINIONS.map((o) => (
              <FormControlLabel key={o} value={o} control={<Radio />} label={OPINION_NAMES[o]} />
            ))}
          </RadioGroup>
        </FormControl>
        <TextField
          label="Comments"
          value={comment}
          onChange={(event) => setComment(event.target.value)}
          multiline
          minRows={3}
          required={opinion !== 'satisfactory'}
          error={touched && Boolean(errors.comment)}
          helperText={touched ? errors.comment : undefined}
        />
      </Stack>
    </FormDialog>
  );
}
