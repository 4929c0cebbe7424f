import { useState } from 'react';
import { useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Box,
  Chip,
  FormControl,
  InputLabel,
  LinearProgress,
  MenuItem,
  Paper,
  Select,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import {
  HEALTH_FLAG_LABELS,
  gapDurationText,
  healthCoverageText,
  healthHeadline,
  HEALTHY_COVERAGE,
  thresholdText,
  type ChannelHealth,
  type HealthInterval,
} from '@portal/contracts/data-health';
import { DAY_MS, formatDateTime, MESSAGES } from '@portal/contracts/rules';
import { useFleet } from '../../lib/fleet-context';
import { dataHealthQuery } from './data-health-api';

const PERIODS = [7, 30, 90, 365] as const;
const INTERVALS_LISTED = 3;

function intervalLine(interval: HealthInterval): string {
  const value = interval.value === null ? '' : ` (${interval.value})`;
  return `${HEALTH_FLAG_LABELS[interval.kind]} ${formatDateTime(interval.from)} – ${formatDateTime(interval.to)}${value}`;
}

function Flags({ channel }: { channel: ChannelHealth }) {
  if (channel.flags.length === 0) return <Chip size="small" variant="outlined" color="success" label="OK" />;
  const more = channel.intervalCount - Math.min(INTERVALS_LISTED, channel.intervals.length);
  return (
    <Stack spacing={0.5}>
      <Stack direction="row" spacing={0.5} sx={{ flexWrap: 'wrap', rowGap: 0.5 }}>
        {channel.flags.map((f) => (
          <Chip key={f} size="small" color="warning" label={HEALTH_FLAG_LABELS[f]} />
        ))}
      </Stack>
      {channel.intervals.slice(0, INTERVALS_LISTED).map((i) => (
        <Typography key={`${i.kind}-${i.from}`} variant="caption" color="text.secondary" component="div">
          {intervalLine(i)}
        </Typography>
      ))}
      {more > 0 && (
        <Typography variant="caption" color="text.secondary" component="div">
          and {more} more
        </Typography>
      )}
    </Stack>
  );
}

/**
 * Ship configuration, Data health: per mapped channel its coverage over the period, last value and the flags
 * (stale, flat-lined, out of range) with their first intervals and the thresholds in force. The period ends at the
 * ship's latest data.
 */
export default function DataHealthPage() {
  const { facilityId = '' } = useParams();
  const { facilities } = useFleet();
  const ship = facilities?.find((f) => f.id === facilityId);
  const theme = useTheme();
  const compact = useMediaQuery(theme.breakpoints.down('sm'));
  const [days, setDays] = useState<(typeof PERIODS)[number]>(7);
  const end = ship?.dataTimeStampMax ? new Date(ship.dataTimeStampMax) : null;
  const period = end
    ? { from: new Date(end.getTime() - days * DAY_MS).toISOString(), to: end.toISOString() }
    : {};
  const health = useQuery({ ...dataHealthQuery(facilityId, period), enabled: Boolean(ship) });
  const channels = health.data?.channels ?? [];
  const headline = health.data && channels.length > 0 ? healthHeadline(health.data) : null;

  return (
    <Box>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ alignItems: { xs: 'stretch', sm: 'center' }, mb: 2 }}
      >
        <Box sx={{ flex: 1 }}>
          <Typography variant="h5" component="h2">
            Data health
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {health.data?.latestDataOn
              ? `Up to the ship's latest data, ${formatDateTime(health.data.latestDataOn)} UTC. Stale is measured up to it.`
              : MESSAGES.NO_DATA}
          </Typography>
        </Box>
        <FormControl size="small" sx={{ minWidth: 180 }}>
          <InputLabel id="health-period-label">Period</InputLabel>
          <Select
            labelId="health-period-label"
            label="Period"
            value={days}
            onChange={(e) => setDays(Number(e.target.value) as (typeof PERIODS)[number])}
          >
            {PERIODS.map((d) => (
              <MenuItem key={d} value={d}>
                Last {d} days of data
              </MenuItem>
            ))}
          </Select>
        </FormControl>
      </Stack>
      {health.isLoading && <LinearProgress />}
      {health.isError && <Alert severity="error">{MESSAGES.DEFAULT_ERROR}</Alert>}
      {health.data?.status === 'noChannels' && (
        <Alert severity="warning">
          No channel of this ship is mapped yet, so none of its data is used. Map the channels under Data
          sources.
        </Alert>
      )}
      {headline && (
        <Alert
          severity={headline.healthy ? 'success' : 'warning'}
          sx={{ mb: 2 }}
          data-testid="data-health-summary"
        >
          {headline.text}
          {health.data && health.data.gapCount > 0 && (
            <Box component="ul" sx={{ m: 0, mt: 0.5, pl: 2.5 }} aria-label="Gaps in the ship's data">
              {health.data.gaps.slice(0, INTERVALS_LISTED).map((g) => (
                <li key={g.from}>
                  No data {formatDateTime(g.from)} – {formatDateTime(g.to)} ({gapDurationText(g.minutes)})
                </li>
              ))}
              {health.data.gapCount > INTERVALS_LISTED && (
                <li>and {health.data.gapCount - INTERVALS_LISTED} more</li>
              )}
            </Box>
          )}
        </Alert>
      )}
      {channels.length > 0 && (
        <Paper>
          <TableContainer>
            <Table size="small" aria-label="Data health of the mapped channels">
              <TableHead>
                <TableRow>
                  <TableCell>Channel</TableCell>
                  <TableCell align="right">Coverage</TableCell>
                  {!compact && <TableCell>Last value</TableCell>}
                  <TableCell>Flags</TableCell>
                  {!compact && <TableCell>Thresholds</TableCell>}
                </TableRow>
              </TableHead>
              <TableBody>
                {channels.map((c) => (
                  <TableRow key={c.channelId} data-testid="data-health-row">
                    <TableCell sx={{ overflowWrap: 'anywhere' }}>
                      <Typography variant="body2" sx={{ fontWeight: 600 }}>
                        {c.name}
                      </Typography>
                      <Typography variant="caption" color="text.secondary" component="div">
                        {c.dataSourceName}.{c.source}
                        {c.unit ? ` [${c.unit}]` : ''}
                      </Typography>
                      {compact && (
                        <Typography variant="caption" color="text.secondary" component="div">
                          Last value {formatDateTime(c.lastValueOn)}
                        </Typography>
                      )}
                    </TableCell>
                    <TableCell
                      align="right"
                      sx={{
                        whiteSpace: 'nowrap',
                        color:
                          c.coverage !== null && c.coverage < HEALTHY_COVERAGE ? 'warning.dark' : undefined,
                      }}
                    >
                      {healthCoverageText(c.coverage)}
                    </TableCell>
                    {!compact && (
                      <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(c.lastValueOn)}</TableCell>
                    )}
                    <TableCell>
                      <Flags channel={c} />
                    </TableCell>
                    {!compact && (
                      <TableCell>
                        <Typography variant="caption" color="text.secondary">
                          {thresholdText(c.threshold)}
                        </Typography>
                      </TableCell>
                    )}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        </Paper>
      )}
    </Box>
  );
}
