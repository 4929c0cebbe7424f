import { useState } from 'react';
import { Box, Button, ListItemText, Menu, MenuItem, Stack, Typography } from '@mui/material';
import DateRangeIcon from '@mui/icons-material/DateRange';
import type { Dayjs } from 'dayjs';
import {
  canSetCustomPeriod,
  customPeriod,
  formatDate,
  lastMonthPeriod,
  OFFERED_PERIOD_TYPES,
  type Period,
  type PeriodType,
  validateCustomPeriod,
} from '@portal/contracts/rules';
import { useFleet } from '../../lib/fleet-context';
import { visuallyHidden } from '../../ui/a11y/visually-hidden';
import { pickerDayText, toPickerValue, UtcDatePicker } from '../../ui/dates/pickers';
import { FormDialog } from '../../ui/dialogs/FormDialog';

export const PERIOD_LABELS: Record<PeriodType, string> = {
  lastMonth: 'Last month',
  custom: 'Custom period',
  latest90: 'Latest 90 days',
};

export const periodRangeText = (period: Pick<Period, 'from' | 'to'>) =>
  `${formatDate(period.from)} – ${formatDate(period.to)}`;

/**
 * The period of the dashboards: last month or a custom range. Set needs two days, From not after To and neither
 * after today (UTC); a wrong field says why.
 */
export function PeriodPicker() {
  const { period, setPeriod } = useFleet();
  const [menu, setMenu] = useState<HTMLElement | null>(null);
  const [customOpen, setCustomOpen] = useState(false);
  const [from, setFrom] = useState<Dayjs | null>(null);
  const [to, setTo] = useState<Dayjs | null>(null);

  const choose = (type: PeriodType) => {
    setMenu(null);
    if (type === 'lastMonth') setPeriod(lastMonthPeriod(new Date()));
    if (type === 'custom') {
      setFrom(period.type === 'custom' ? toPickerValue(period.from) : null);
      setTo(period.type === 'custom' ? toPickerValue(period.to) : null);
      setCustomOpen(true);
    }
  };
  const days = [pickerDayText(from), pickerDayText(to)];
  const now = new Date();
  // A typed text that is not a day yet is invalid, not empty.
  const fieldDay = (value: Dayjs | null) => (value && !value.isValid() ? 'invalid' : pickerDayText(value));
  const errors = validateCustomPeriod(fieldDay(from), fieldDay(to), now);
  const canSet = canSetCustomPeriod(days, now);

  return (
    <>
      <Button
        onClick={(e) => setMenu(e.currentTarget)}
        startIcon={<DateRangeIcon />}
        variant="outlined"
        fullWidth
        sx={{ justifyContent: 'flex-start', textAlign: 'left', textTransform: 'none' }}
        data-testid="period-button"
      >
        {/* The name is "Period: Last month 2026.10.01 – 2026.10.31": what it shows, after what it is (WCAG 2.5.3). */}
        <Box component="span" sx={visuallyHidden}>
          Period:{' '}
        </Box>
        <Stack>
          <Typography variant="body2" sx={{ fontWeight: 600 }} data-testid="period-type">
            {PERIOD_LABELS[period.type]}
          </Typography>
          <Typography variant="caption" color="text.secondary" data-testid="period-range">
            {periodRangeText(period)}
          </Typography>
        </Stack>
      </Button>
      <Menu anchorEl={menu} open={Boolean(menu)} onClose={() => setMenu(null)}>
        {OFFERED_PERIOD_TYPES.map((type) => (
          <MenuItem key={type} selected={period.type === type} onClick={() => choose(type)}>
            <ListItemText
              primary={PERIOD_LABELS[type]}
              secondary={
                type === 'lastMonth' ? periodRangeText(lastMonthPeriod(new Date())) : 'Choose two dates'
              }
            />
          </MenuItem>
        ))}
      </Menu>
      <FormDialog
        title="Custom period"
        open={customOpen}
        onClose={() => setCustomOpen(false)}
        submitLabel="Set"
        onSubmit={() => {
          setPeriod(customPeriod(days[0]!, days[1]!));
          setCustomOpen(false);
        }}
        invalid={!canSet}
      >
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          From the start of the first day to the end of the last day, UTC.
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <UtcDatePicker
            label="From"
            value={from}
            onChange={setFrom}
            disableFuture
            slotProps={{
              textField: {
                fullWidth: true,
                error: Boolean(errors.from),
                helperText: errors.from,
                name: 'from',
              },
            }}
          />
          <UtcDatePicker
            label="To"
            value={to}
            onChange={setTo}
            disableFuture
            slotProps={{
              textField: {
                fullWidth: true,
                error: Boolean(errors.to),
                helperText: errors.to,
                name: 'to',
              },
            }}
          />
        </Stack>
      </FormDialog>
    </>
  );
}
