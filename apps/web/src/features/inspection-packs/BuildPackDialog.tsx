import { useState } from 'react';
import type { Dayjs } from 'dayjs';
import {
  FormControl,
  FormControlLabel,
  FormLabel,
  Radio,
  RadioGroup,
  Stack,
  Typography,
} from '@mui/material';
import {
  MAX_INSPECTION_PACK_DAYS,
  monthPackPeriod,
  packPeriodLabel,
  packPeriodProblem,
  previousMonth,
} from '@portal/contracts/rules';
import { useNotify } from '../../lib/notifications';
import {
  pickerDayText,
  pickerMonthText,
  toPickerValue,
  UtcDatePicker,
  UtcMonthPicker,
} from '../../ui/dates/pickers';
import { failureMessage, useBuildInspectionPack } from './inspection-packs-api';
import { FormDialog } from '../../ui/dialogs/FormDialog';

type Mode = 'month' | 'days';

/**
 * "Build inspection pack": a calendar month (the previous one to start with) or the days from one to another (UTC),
 * at most MAX_INSPECTION_PACK_DAYS. The build is queued; the list shows its progress.
 */
export function BuildPackDialog({ facilityId, onClose }: { facilityId: string; onClose(): void }) {
  const notify = useNotify();
  const build = useBuildInspectionPack(facilityId);
  const [mode, setMode] = useState<Mode>('month');
  const initial = monthPackPeriod(previousMonth(new Date()))!;
  const [month, setMonth] = useState<Dayjs | null>(() => toPickerValue(`${initial.from}T00:00:00Z`));
  const [from, setFrom] = useState<Dayjs | null>(() => toPickerValue(`${initial.from}T00:00:00Z`));
  const [to, setTo] = useState<Dayjs | null>(() => toPickerValue(`${initial.to}T00:00:00Z`));

  const monthText = pickerMonthText(month);
  const period =
    mode === 'month'
      ? monthText
        ? monthPackPeriod(monthText)
        : null
      : { from: pickerDayText(from) ?? '', to: pickerDayText(to) ?? '' };
  const problem = period
    ? packPeriodProblem(period, new Date())
    : { field: 'from' as const, message: 'Choose a month' };
  const error = (field: 'from' | 'to') =>
    problem && (mode === 'month' || problem.field === field) ? problem.message : undefined;

  const submit = () => {
    if (!period || problem) return;
    build.mutate(period, {
      onSuccess: () => {
        notify.success(`The inspection pack of ${packPeriodLabel(period)} is being built`);
        onClose();
      },
      onError: (failure) => notify.error(failureMessage(failure), failure),
    });
  };

  return (
    <FormDialog
      title="Build inspection pack"
      onClose={onClose}
      submitLabel="Build"
      onSubmit={submit}
      invalid={Boolean(problem)}
      busy={build.isPending}
    >
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        A PDF of the period (ship and EGCS, KPIs with their charts, events, record book with its verification,
        calculations in force, data health) and the original logger files with their SHA-256, in one zip. A
        year takes a little while: the list shows how far it is.
      </Typography>
      <FormControl sx={{ mb: 2 }}>
        <FormLabel id="pack-period-kind">Period (UTC)</FormLabel>
        <RadioGroup
          row
          aria-labelledby="pack-period-kind"
          value={mode}
          onChange={(event) => setMode(event.target.value as Mode)}
        >
          <FormControlLabel value="month" control={<Radio />} label="A calendar month" />
          <FormControlLabel value="days" control={<Radio />} label="Days" />
        </RadioGroup>
      </FormControl>
      {mode === 'month' ? (
        <UtcMonthPicker
          label="Month (UTC)"
          value={month}
          onChange={setMonth}
          slotProps={{
            textField: { fullWidth: true, error: Boolean(error('from')), helperText: error('from') },
          }}
        />
      ) : (
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <UtcDatePicker
            label="First day (UTC)"
            value={from}
            onChange={setFrom}
            slotProps={{
              textField: { fullWidth: true, error: Boolean(error('from')), helperText: error('from') },
            }}
          />
          <UtcDatePicker
            label="Last day (UTC)"
            value={to}
            onChange={setTo}
            slotProps={{
              textField: {
                fullWidth: true,
                error: Boolean(error('to')),
                helperText: error('to') ?? `At most ${MAX_INSPECTION_PACK_DAYS} days`,
              },
            }}
          />
        </Stack>
      )}
    </FormDialog>
  );
}
