import { useState } from 'react';
import type { Dayjs } from 'dayjs';
import {
  Alert,
  Box,
  FormControl,
  InputLabel,
  MenuItem,
  Paper,
  Select,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TablePagination,
  TableRow,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { AUDIT_LOG_PAGE_SIZES, type AuditLogEntry } from '@portal/contracts/audit';
import { customPeriod, formatDateTime, MESSAGES, validateCustomPeriod } from '@portal/contracts/rules';
import { auditDetailText, auditSubjectText } from './audit-display';
import { pickerDayText, UtcDatePicker } from '../../ui/dates/pickers';
import { auditActionsQuery, auditLogQuery, organizationOptionsQuery } from './maintenance-api';
import { MaintenanceSwitch } from './MaintenanceSwitch';

const ALL = '';

function EntryCells({ entry }: { entry: AuditLogEntry }) {
  return (
    <>
      <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(entry.at)}</TableCell>
      <TableCell>{entry.username ?? entry.userId ?? 'System'}</TableCell>
      <TableCell>{entry.organizationName ?? ''}</TableCell>
      <TableCell sx={{ whiteSpace: 'nowrap' }}>{entry.action}</TableCell>
      <TableCell sx={{ overflowWrap: 'anywhere', maxWidth: 240 }}>{auditSubjectText(entry)}</TableCell>
      <TableCell sx={{ overflowWrap: 'anywhere', maxWidth: 360 }}>
        {auditDetailText(entry.detail, entry.names)}
      </TableCell>
    </>
  );
}

/** One entry as a block of lines: a phone shows the whole entry without scrolling sideways. */
function EntryBlock({ entry }: { entry: AuditLogEntry }) {
  return (
    <Box sx={{ px: 2, py: 1.5, borderTop: 1, borderColor: 'divider' }} data-testid="audit-entry">
      <Typography variant="body2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
        {entry.action}
        {entry.subject ? ` · ${auditSubjectText(entry)}` : ''}
      </Typography>
      <Typography variant="body2">
        {formatDateTime(entry.at)} UTC · {entry.username ?? entry.userId ?? 'System'}
        {entry.organizationName ? ` · ${entry.organizationName}` : ''}
      </Typography>
      {entry.detail !== null && (
        <Typography variant="caption" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          {auditDetailText(entry.detail, entry.names)}
        </Typography>
      )}
    </Box>
  );
}

function AuditLog() {
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('md'));
  const [organizationId, setOrganizationId] = useState(ALL);
  const [action, setAction] = useState(ALL);
  const [from, setFrom] = useState<Dayjs | null>(null);
  const [to, setTo] = useState<Dayjs | null>(null);
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState<number>(AUDIT_LOG_PAGE_SIZES[0]);
  const organizations = useQuery(organizationOptionsQuery());
  const actions = useQuery(auditActionsQuery());

  const fieldDay = (value: Dayjs | null) => (value && !value.isValid() ? 'invalid' : pickerDayText(value));
  const periodErrors = validateCustomPeriod(fieldDay(from), fieldDay(to), new Date());
  const periodValid = Object.keys(periodErrors).length === 0;
  const fromDay = pickerDayText(from);
  const toDay = pickerDayText(to);
  const query = {
    organizationId: organizationId || undefined,
    action: action || undefined,
    from: fromDay ? customPeriod(fromDay, fromDay).from.toISOString() : undefined,
    to: toDay ? customPeriod(toDay, toDay).to.toISOString() : undefined,
    page: page + 1,
    pageSize,
  };
  const log = useQuery({ ...auditLogQuery(query), enabled: periodValid });
  const filter =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setPage(0);
    };

  return (
    <Box>
      <Typography variant="h6" component="h3" sx={{ mb: 1 }}>
        Audit log
      </Typography>
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          mb: 2,
          gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', lg: 'repeat(4, 1fr)' },
        }}
      >
        <FormControl size="small" fullWidth>
          <InputLabel id="audit-organization">Organization</InputLabel>
          <Select
            labelId="audit-organization"
            label="Organization"
            value={organizationId}
            onChange={(e) => filter(setOrganizationId)(e.target.value)}
          >
            <MenuItem value={ALL}>All organizations</MenuItem>
            {(organizations.data ?? []).map((o) => (
              <MenuItem key={o.id} value={o.id}>
                {o.name}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
        <FormControl size="small" fullWidth>
          <InputLabel id="audit-action">Action</InputLabel>
          <Select
            labelId="audit-action"
            label="Action"
            value={action}
            onChange={(e) => filter(setAction)(e.target.value)}
          >
            <MenuItem value={ALL}>All actions</MenuItem>
            {(actions.data ?? []).map((a) => (
              <MenuItem key={a} value={a}>
                {a}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
        <UtcDatePicker
          label="From (UTC)"
          value={from}
          onChange={filter(setFrom)}
          disableFuture
          slotProps={{
            textField: {
              size: 'small',
              fullWidth: true,
              name: 'from',
              error: Boolean(periodErrors.from),
              helperText: periodErrors.from,
            },
            field: { clearable: true },
          }}
        />
        <UtcDatePicker
          label="To (UTC)"
          value={to}
          onChange={filter(setTo)}
          disableFuture
          slotProps={{
            textField: {
              size: 'small',
              fullWidth: true,
              name: 'to',
              error: Boolean(periodErrors.to),
              helperText: periodErrors.to,
            },
            field: { clearable: true },
          }}
        />
      </Box>
      <Paper variant="outlined" data-testid="audit-log">
        {log.isError ? (
          <Alert severity="error">{MESSAGES.DEFAULT_ERROR}</Alert>
        ) : !periodValid ? (
          <Typography sx={{ p: 2 }} color="text.secondary">
            Correct the period to see entries.
          </Typography>
        ) : log.isPending ? (
          <Stack spacing={1} sx={{ p: 2 }}>
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} variant="rounded" height={32} />
            ))}
          </Stack>
        ) : log.data.items.length === 0 ? (
          <Typography sx={{ p: 2 }} color="text.secondary">
            No entries
          </Typography>
        ) : phone ? (
          log.data.items.map((entry) => <EntryBlock key={entry.id} entry={entry} />)
        ) : (
          <Table size="small" aria-label="Audit log">
            <TableHead>
              <TableRow>
                <TableCell>Time (UTC)</TableCell>
                <TableCell>User</TableCell>
                <TableCell>Organization</TableCell>
                <TableCell>Action</TableCell>
                <TableCell>Subject</TableCell>
                <TableCell>Detail</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {log.data.items.map((entry) => (
                <TableRow key={entry.id} data-testid="audit-entry">
                  <EntryCells entry={entry} />
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
        <TablePagination
          component="div"
          count={log.data?.total ?? 0}
          page={log.data && page * pageSize >= log.data.total && page > 0 ? 0 : page}
          onPageChange={(_e, next) => setPage(next)}
          rowsPerPage={pageSize}
          rowsPerPageOptions={[...AUDIT_LOG_PAGE_SIZES]}
          onRowsPerPageChange={(e) => {
            setPageSize(Number(e.target.value));
            setPage(0);
          }}
          labelRowsPerPage="Entries per page"
        />
      </Paper>
    </Box>
  );
}

/** /admin/maintenance (SystemAdmin): switch maintenance mode, and read the audit log. */
export default function MaintenancePage() {
  return (
    <Box>
      <Typography variant="h5" component="h2" sx={{ mb: 2 }}>
        Maintenance and audit log
      </Typography>
      <MaintenanceSwitch />
      <AuditLog />
    </Box>
  );
}
