import { useEffect, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  FormControl,
  FormControlLabel,
  FormLabel,
  Radio,
  RadioGroup,
  Skeleton,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import {
  RETENTION_MINIMUM_MONTHS,
  retentionProblem,
  type RetentionExpired,
} from '@portal/contracts/retention';
import { MESSAGES } from '@portal/contracts/rules';
import { useNotify } from '../../lib/notifications';
import { retentionQuery, useSaveRetention } from './retention-api';

/**
 * An organization's data retention on its administration page (its UserAdmin, or a SystemAdmin; decision 0125):
 * how many months its data stay online (at least 18) and whether older data are archived (kept, restorable) or
 * deleted. Saved with an audit entry.
 */
export function RetentionSection({ organizationId }: { organizationId: string }) {
  const retention = useQuery(retentionQuery(organizationId));
  const save = useSaveRetention(organizationId);
  const { error, success } = useNotify();
  const [months, setMonths] = useState('');
  const [expired, setExpired] = useState<RetentionExpired>('archive');

  useEffect(() => {
    if (!retention.data) return;
    setMonths(String(retention.data.months));
    setExpired(retention.data.expired);
  }, [retention.data]);

  const problem = months.trim() === '' ? 'Enter a number of months' : retentionProblem(Number(months));

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (problem) return;
    save.mutate(
      { months: Number(months), expired },
      {
        onSuccess: () => success('The data retention was saved'),
        onError: (cause) => error(undefined, cause),
      },
    );
  };

  return (
    <Box component="section" aria-labelledby="retention-heading" sx={{ mt: 3 }} data-testid="retention">
      <Typography variant="h6" component="h3" id="retention-heading" sx={{ mb: 1 }}>
        Data retention
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        Recorded data must be kept at least {RETENTION_MINIMUM_MONTHS} months (2021 EGCS Guidelines, 7.4).
        Older data are archived: they leave the dashboards and can be restored by a system administrator.
      </Typography>
      {retention.isError ? (
        <Alert severity="error">{retention.error.message || MESSAGES.DEFAULT_ERROR}</Alert>
      ) : !retention.data ? (
        <Skeleton variant="rounded" height={48} />
      ) : (
        <Stack component="form" spacing={2} onSubmit={submit} noValidate sx={{ maxWidth: 480 }}>
          <TextField
            label="Months kept online"
            type="number"
            value={months}
            onChange={(e) => setMonths(e.target.value)}
            error={Boolean(problem)}
            helperText={problem ?? `Kept online from ${retention.data.keptFrom}`}
            slotProps={{ htmlInput: { min: RETENTION_MINIMUM_MONTHS, step: 1 } }}
          />
          <FormControl>
            <FormLabel id="retention-expired-label">Older data</FormLabel>
            <RadioGroup
              aria-labelledby="retention-expired-label"
              value={expired}
              onChange={(e) => setExpired(e.target.value as RetentionExpired)}
            >
              <FormControlLabel value="archive" control={<Radio />} label="Archive (kept, can be restored)" />
              <FormControlLabel value="delete" control={<Radio />} label="Delete (cannot be undone)" />
            </RadioGroup>
          </FormControl>
          {expired === 'delete' && retention.data.expired !== 'delete' && (
            <Alert severity="warning">
              Data older than the months kept online will be deleted for good on the next run of the
              retention.
            </Alert>
          )}
          <Box>
            <Button type="submit" variant="contained" disabled={Boolean(problem) || save.isPending}>
              Save retention
            </Button>
          </Box>
        </Stack>
      )}
    </Box>
  );
}
