import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Box,
  Button,
  Chip,
  MenuItem,
  Paper,
  Skeleton,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import type { ComplianceDeadline } from '@portal/contracts/compliance-calendar';
import { useSession } from '../../lib/session';
import { useNotify } from '../../lib/notifications';
import { PageHeading } from '../../ui/headings/PageHeading';
import { calendarQuery, useDeadlineDone } from './calendar-api';
import { STATE_COLORS, STATE_LABELS, calendarYears, deadlineWhen, formatDay, stateSummary } from './display';
import { MarkDoneDialog } from './MarkDoneDialog';

/**
 * The compliance calendar (decision 0119): the organization's deadlines of a year under IMO DCS, EU MRV, EU ETS,
 * FuelEU and UK ETS, each with its date, instrument and state; an administrator marks one as done (or takes it
 * back). A reminder goes to the administrators 14 days before a deadline not marked done.
 */
export default function CalendarPage() {
  const { profile } = useSession();
  const notify = useNotify();
  const [params, setParams] = useSearchParams();
  const now = new Date();
  const year = Number(params.get('year')) || now.getUTCFullYear();
  const organizationId = profile?.organizationId ?? '';
  const admin = Boolean(profile?.roles.some((r) => r === 'UserAdmin' || r === 'SystemAdmin'));
  const calendar = useQuery({ ...calendarQuery(organizationId, year), enabled: Boolean(organizationId) });
  const { undone } = useDeadlineDone(organizationId, year);
  const [marking, setMarking] = useState<ComplianceDeadline>();

  return (
    <Box sx={{ p: { xs: 2, md: 3 }, maxWidth: 1100 }}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' }, mb: 2 }}
      >
        <Box>
          <PageHeading>Compliance calendar</PageHeading>
          <Typography variant="body2" color="text.secondary" data-testid="calendar-summary">
            {calendar.data
              ? `${profile?.organizationName ?? ''}, ${year}: ${stateSummary(calendar.data.deadlines)}`
              : 'Every deadline of the year and its state'}
          </Typography>
        </Box>
        <TextField
          select
          label="Year"
          size="small"
          value={year}
          onChange={(event) => setParams({ year: event.target.value })}
          sx={{ minWidth: 120 }}
          slotProps={{ htmlInput: { 'data-testid': 'calendar-year' } }}
        >
          {calendarYears(now).map((y) => (
            <MenuItem key={y} value={y}>
              {y}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      {calendar.isError ? (
        <Alert severity="error">The compliance calendar could not be loaded.</Alert>
      ) : !calendar.data ? (
        <Skeleton variant="rounded" height={320} />
      ) : calendar.data.deadlines.length === 0 ? (
        <Typography color="text.secondary">No deadline falls in {year}.</Typography>
      ) : (
        <Stack
          spacing={1.5}
          component="ul"
          sx={{ listStyle: 'none', p: 0, m: 0 }}
          aria-label={`Deadlines ${year}`}
        >
          {calendar.data.deadlines.map((d) => (
            <Paper
              key={d.code}
              component="li"
              variant="outlined"
              sx={{ p: 2 }}
              data-testid="deadline"
              data-code={d.code}
              data-state={d.state}
            >
              <Stack
                direction={{ xs: 'column', md: 'row' }}
                spacing={{ xs: 1, md: 2 }}
                sx={{ alignItems: { md: 'center' } }}
              >
                <Box sx={{ minWidth: 110 }}>
                  <Typography variant="subtitle2" component="p" data-testid="deadline-date">
                    {formatDay(d.dueOn)}
                  </Typography>
                  <Typography variant="caption" color="text.secondary">
                    {d.regimeName}
                  </Typography>
                </Box>
                <Box sx={{ flex: 1, minWidth: 0 }}>
                  <Typography variant="body1" component="h2" sx={{ fontWeight: 500 }}>
                    {d.title}
                  </Typography>
                  <Typography variant="caption" color="text.secondary" component="p">
                    For {d.reportingYear}. {d.citation}
                    {d.secondary ? ' (date confirmed from a secondary source)' : ''}
                  </Typography>
                  {d.done?.note ? (
                    <Typography variant="body2" component="p" sx={{ mt: 0.5, overflowWrap: 'anywhere' }}>
                      {d.done.note}
                    </Typography>
                  ) : null}
                </Box>
                <Stack spacing={0.5} sx={{ alignItems: { md: 'flex-end' }, minWidth: 180 }}>
                  <Chip
                    size="small"
                    label={STATE_LABELS[d.state]}
                    color={STATE_COLORS[d.state]}
                    variant={d.state === 'done' ? 'outlined' : 'filled'}
                    data-testid="deadline-state"
                    sx={{ alignSelf: { xs: 'flex-start', md: 'flex-end' } }}
                  />
                  <Typography variant="caption" color="text.secondary" data-testid="deadline-when">
                    {deadlineWhen(d)}
                  </Typography>
                  {d.remindedAt && d.state !== 'done' ? (
                    <Typography variant="caption" color="text.secondary">
                      Reminder sent {formatDay(d.remindedAt.slice(0, 10))}
                    </Typography>
                  ) : null}
                  {admin && d.done?.source !== 'verifier' ? (
                    d.state === 'done' ? (
                      <Button
                        size="small"
                        onClick={() =>
                          undone.mutate(d.code, {
                            onSuccess: () => notify.success(),
                            onError: (failure) => notify.error(undefined, failure),
                          })
                        }
                        disabled={undone.isPending}
                        aria-label={`Take back done: ${d.title}`}
                      >
                        Take back
                      </Button>
                    ) : (
                      <Button
                        size="small"
                        variant="outlined"
                        onClick={() => setMarking(d)}
                        data-testid="mark-done"
                        aria-label={`Mark as done: ${d.title}`}
                      >
                        Mark as done
                      </Button>
                    )
                  ) : null}
                </Stack>
              </Stack>
            </Paper>
          ))}
        </Stack>
      )}
      <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 2 }}>
        Each deadline is for the reporting year before it. A deadline is met on its day and overdue from the
        next. A reminder goes to the organization&apos;s administrators {calendar.data?.reminderDays ?? 14}{' '}
        days before a deadline that is not marked done.
      </Typography>
      {marking && calendar.data ? (
        <MarkDoneDialog
          organizationId={organizationId}
          year={year}
          deadline={marking}
          today={calendar.data.today}
          onClose={() => setMarking(undefined)}
        />
      ) : null}
    </Box>
  );
}
