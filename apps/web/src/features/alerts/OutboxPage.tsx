import { Fragment, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Chip,
  Collapse,
  IconButton,
  Paper,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  Typography,
} from '@mui/material';
import KeyboardArrowDownIcon from '@mui/icons-material/KeyboardArrowDown';
import KeyboardArrowUpIcon from '@mui/icons-material/KeyboardArrowUp';
import { useQuery } from '@tanstack/react-query';
import type { OutboxMail } from '@portal/contracts/alerts';
import { formatDateTime } from '@portal/contracts/rules';
import { useNotify } from '../../lib/notifications';
import { outboxQuery, useResendEmails } from './alerts-api';

const STATUS: Record<OutboxMail['status'], { label: string; colour: 'success' | 'warning' | 'error' }> = {
  sent: { label: 'Sent', colour: 'success' },
  pending: { label: 'Pending', colour: 'warning' },
  failed: { label: 'Failed', colour: 'error' },
};

/** One e-mail: its text, and its HTML in a sandboxed frame (no script, no same origin: shown, never run). */
function MailDetail({ mail }: { mail: OutboxMail }) {
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', lg: '1fr 1fr' }, py: 2 }}>
      <Box>
        <Typography variant="subtitle2" component="h3" gutterBottom>
          Text
        </Typography>
        <Box
          component="pre"
          data-testid="outbox-text"
          sx={{
            whiteSpace: 'pre-wrap',
            overflowWrap: 'anywhere',
            m: 0,
            fontSize: 13,
            fontFamily: 'monospace',
          }}
        >
          {mail.text}
        </Box>
        <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 1 }}>
          Idempotency key {mail.idempotencyKey}
        </Typography>
      </Box>
      <Box>
        <Typography variant="subtitle2" component="h3" gutterBottom>
          HTML
        </Typography>
        <Box
          component="iframe"
          title={`HTML of ${mail.subject}`}
          sandbox=""
          srcDoc={mail.html}
          sx={{ width: '100%', height: 360, border: 1, borderColor: 'divider', bgcolor: 'common.white' }}
        />
      </Box>
    </Box>
  );
}

/**
 * /admin/outbox (SystemAdmin): every e-mail the portal composed, newest first: to whom, the subject, when, and
 * whether it went out; with no SMTP server configured this is where mail goes.
 */
export default function OutboxPage() {
  const [page, setPage] = useState(0);
  const [rowsPerPage, setRowsPerPage] = useState(25);
  const [open, setOpen] = useState<string | null>(null);
  const outbox = useQuery(outboxQuery({ limit: rowsPerPage, offset: page * rowsPerPage }));
  const resend = useResendEmails();
  const { success, error } = useNotify();
  const sendAgain = (body: Parameters<typeof resend.mutate>[0]) =>
    resend.mutate(body, {
      onSuccess: (result) => success(result.message),
      onError: (cause) => error(undefined, cause),
    });

  if (outbox.isError) return <Alert severity="error">{outbox.error.message}</Alert>;
  if (!outbox.data)
    return (
      <Stack spacing={1}>
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} variant="rounded" height={48} />
        ))}
      </Stack>
    );
  const { items, total, transport, failed } = outbox.data;
  return (
    <Box>
      <Typography variant="h6" component="h2" gutterBottom>
        Outbox
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }} data-testid="outbox-transport">
        {transport === 'smtp'
          ? 'E-mails go to the SMTP server (SMTP_URL); each is listed here with its state.'
          : 'No SMTP server is configured (SMTP_URL): e-mails are kept here, as they would have been sent.'}
      </Typography>
      {failed > 0 && (
        <Alert
          severity="warning"
          sx={{ mb: 2 }}
          data-testid="outbox-failed"
          action={
            <Button
              color="inherit"
              size="small"
              disabled={resend.isPending}
              onClick={() => sendAgain({ allFailed: true })}
            >
              Send all again
            </Button>
          }
        >
          {failed === 1 ? '1 e-mail failed.' : `${failed} e-mails failed.`} Once the SMTP server or the
          address is fixed, send them again: each keeps its text and its Message-ID.
        </Alert>
      )}
      <TableContainer component={Paper} variant="outlined">
        <Table size="small" aria-label="Outbox">
          <TableHead>
            <TableRow>
              <TableCell padding="checkbox">
                <Box component="span" sx={visuallyHidden}>
                  Details
                </Box>
              </TableCell>
              <TableCell>Time (UTC)</TableCell>
              <TableCell>To</TableCell>
              <TableCell>Subject</TableCell>
              <TableCell>State</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {items.length === 0 && (
              <TableRow>
                <TableCell colSpan={5}>No e-mails yet</TableCell>
              </TableRow>
            )}
            {items.map((mail) => {
              const expanded = open === mail.id;
              const status = STATUS[mail.status];
              return (
                <Fragment key={mail.id}>
                  <TableRow hover data-testid="outbox-row" data-to={mail.to}>
                    <TableCell padding="checkbox">
                      <IconButton
                        size="small"
                        aria-label={expanded ? `Hide ${mail.subject}` : `Show ${mail.subject}`}
                        aria-expanded={expanded}
                        onClick={() => setOpen(expanded ? null : mail.id)}
                      >
                        {expanded ? <KeyboardArrowUpIcon /> : <KeyboardArrowDownIcon />}
                      </IconButton>
                    </TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(mail.createdOn)}</TableCell>
                    <TableCell sx={{ overflowWrap: 'anywhere' }}>{mail.to}</TableCell>
                    <TableCell sx={{ overflowWrap: 'anywhere' }} data-testid="outbox-subject">
                      {mail.kind === 'digest' && <Chip size="small" label="Digest" sx={{ mr: 1 }} />}
                      {mail.kind === 'inspection-pack' && (
                        <Chip size="small" label="Inspection pack" sx={{ mr: 1 }} />
                      )}
                      {mail.kind === 'verifier-invitation' && (
                        <Chip size="small" label="Invitation" sx={{ mr: 1 }} />
                      )}
                      {mail.subject}
                    </TableCell>
                    <TableCell>
                      <Chip size="small" color={status.colour} variant="outlined" label={status.label} />
                      {mail.sendAfter && (
                        <Typography variant="caption" color="text.secondary" component="p">
                          Quiet hours: goes at {formatDateTime(mail.sendAfter)} UTC
                        </Typography>
                      )}
                      {mail.error && (
                        <Typography
                          variant="caption"
                          color="error"
                          component="p"
                          sx={{ overflowWrap: 'anywhere' }}
                        >
                          {mail.error} ({mail.attempts} {mail.attempts === 1 ? 'attempt' : 'attempts'})
                        </Typography>
                      )}
                      {mail.status === 'failed' && (
                        <Button
                          size="small"
                          disabled={resend.isPending}
                          onClick={() => sendAgain({ ids: [mail.id] })}
                          aria-label={`Send again: ${mail.subject} to ${mail.to}`}
                        >
                          Send again
                        </Button>
                      )}
                    </TableCell>
                  </TableRow>
                  <TableRow>
                    <TableCell colSpan={5} sx={{ py: 0, borderBottom: expanded ? undefined : 0 }}>
                      <Collapse in={expanded} unmountOnExit>
                        <MailDetail mail={mail} />
                      </Collapse>
                    </TableCell>
                  </TableRow>
                </Fragment>
              );
            })}
          </TableBody>
        </Table>
      </TableContainer>
      <TablePagination
        component="div"
        count={total}
        page={page}
        rowsPerPage={rowsPerPage}
        rowsPerPageOptions={[25, 50, 100]}
        onPageChange={(_e, p) => setPage(p)}
        onRowsPerPageChange={(e) => {
          setRowsPerPage(Number(e.target.value));
          setPage(0);
        }}
      />
    </Box>
  );
}

const visuallyHidden = {
  border: 0,
  clip: 'rect(0 0 0 0)',
  height: 1,
  margin: -1,
  overflow: 'hidden',
  padding: 0,
  position: 'absolute',
  whiteSpace: 'nowrap',
  width: 1,
} as const;
