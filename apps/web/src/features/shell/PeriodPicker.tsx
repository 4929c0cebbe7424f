import { useState } from 'react';
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  ListItemText,
  Menu,
  MenuItem,
  Stack,
  Typography,
} from '@mui/material';
import DateRangeIcon from '@mui/icons-material/DateRange';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import dayjs, { type Dayjs } from 'dayjs';
import {
  canSetCustomPeriod,
  customPeriod,
  formatDate,
  lastMonthPeriod,
  OFFERED_PERIOD_TYPES,
  type Period,
  type PeriodType,
} from '@portal/contracts/rules';
import { DIALOG_WIDTHS } from '@portal/contracts/rules';
import { useFleet } from '../../app/fleet-context';

export const PERIOD_LABELS: Record<PeriodType, string> = {
  lastMonth: 'Last month',
  custom: 'Custom period',
  latest90: 'Latest 90 days',
};

export const periodRangeText = (period: Pick<Period, 'from' | 'to'>) =>
  `${formatDate(period.from)} – ${formatDate(period.to)}`;

/** The picker's day as 'YYYY-MM-DD' (the calendar day the user clicked), or null. */
const dayText = (value: Dayjs | null) => (value && value.isValid() ? value.format('YYYY-MM-DD') : null);
/** A period bound (UTC) as the picker's local calendar day. */
const toPickerDay = (date: Date) => dayjs(date.toISOString().slice(0, 10));

/** The period of the dashboards: last month or a custom range (Set needs exactly two dates). */
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
      setFrom(period.type === 'custom' ? toPickerDay(period.from) : null);
      setTo(period.type === 'custom' ? toPickerDay(period.to) : null);
      setCustomOpen(true);
    }
  };
  const days = [dayText(from), dayText(to)];
  const canSet = canSetCustomPeriod(days);

  return (
    <>
      <Button
        onClick={(e) => setMenu(e.currentTarget)}
        startIcon={<DateRangeIcon />}
        variant="outlined"
        fullWidth
        sx={{ justifyContent: 'flex-start', textAlign: 'left', textTransform: 'none' }}
        aria-label="Period"
        data-testid="period-button"
      >
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
      <Dialog
        open={customOpen}
        onClose={() => setCustomOpen(false)}
        fullWidth
        maxWidth={false}
        slotProps={{ paper: { sx: { maxWidth: DIALOG_WIDTHS.normal } } }}
      >
        <DialogTitle>Custom period</DialogTitle>
        <DialogContent>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            From the start of the first day to the end of the last day, UTC.
          </Typography>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <DatePicker
              label="From"
              value={from}
              onChange={setFrom}
              format="YYYY-MM-DD"
              disableFuture
              slotProps={{ textField: { fullWidth: true } }}
            />
            <DatePicker
              label="To"
              value={to}
              onChange={setTo}
              format="YYYY-MM-DD"
              disableFuture
              slotProps={{ textField: { fullWidth: true } }}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setCustomOpen(false)}>Cancel</Button>
          <Button
            variant="contained"
            disabled={!canSet}
            onClick={() => {
              setPeriod(customPeriod(days[0]!, days[1]!));
              setCustomOpen(false);
            }}
          >
            Set
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
