import { useState } from 'react';
import {
  Alert,
  Box,
  Chip,
  Collapse,
  IconButton,
  Skeleton,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import KeyboardArrowDownIcon from '@mui/icons-material/KeyboardArrowDown';
import KeyboardArrowUpIcon from '@mui/icons-material/KeyboardArrowUp';
import { useQuery } from '@tanstack/react-query';
import { formatDateTimeSeconds, MESSAGES } from '@portal/contracts/rules';
import {
  WEBHOOK_ATTEMPT_OUTCOME_NAMES,
  WEBHOOK_DELIVERY_STATUS_NAMES,
  nextTryText,
  responseText,
  type WebhookDelivery,
} from '@portal/contracts/webhooks';
import { visuallyHidden } from '../../ui/a11y/visually-hidden';
import { deliveryLabel, deliveryStatusColor } from './display';
import { deliveriesQuery } from './webhooks-api';

/** Deliveries shown per webhook: the newest. */
const SHOWN = 20;

/**
 * A webhook's delivery log: status, time, what it was about, the last response, attempts and the next try; each row
 * opens its attempts (time, outcome, response, duration, error, next try). Polls while a delivery is pending.
 */
export function DeliveryLog({
  organizationId,
  webhookId,
  label,
}: {
  organizationId: string;
  webhookId: string;
  label: string;
}) {
  const deliveries = useQuery(deliveriesQuery(organizationId, webhookId));
  const [open, setOpen] = useState<string | null>(null);
  if (deliveries.isError)
    return <Alert severity="error">{deliveries.error.message ?? MESSAGES.DEFAULT_ERROR}</Alert>;
  if (!deliveries.data) return <Skeleton variant="rounded" height={80} />;
  if (!deliveries.data.length)
    return (
      <Typography variant="body2" color="text.secondary">
        No deliveries yet
      </Typography>
    );
  return (
    <TableContainer>
      <Table size="small" aria-label={label} data-testid="webhook-deliveries">
        <TableHead>
          <TableRow>
            <TableCell>Status</TableCell>
            <TableCell>Time (UTC)</TableCell>
            <TableCell>Delivery</TableCell>
            <TableCell>Response</TableCell>
            <TableCell align="right">Attempts</TableCell>
            <TableCell>Next try (UTC)</TableCell>
            <TableCell>
              <Box component="span" sx={visuallyHidden}>
                Details
              </Box>
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {deliveries.data.slice(0, SHOWN).map((d) => (
            <DeliveryRow
              key={d.id}
              delivery={d}
              open={open === d.id}
              onToggle={() => setOpen(open === d.id ? null : d.id)}
            />
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

function DeliveryRow({
  delivery,
  open,
  onToggle,
}: {
  delivery: WebhookDelivery;
  open: boolean;
  onToggle(): void;
}) {
  const last = delivery.attemptLog.at(-1);
  return (
    <>
      <TableRow data-testid="webhook-delivery" data-status={delivery.status}>
        <TableCell>
          <Chip
            size="small"
            variant="outlined"
            color={deliveryStatusColor(delivery.status)}
            label={WEBHOOK_DELIVERY_STATUS_NAMES[delivery.status]}
          />
        </TableCell>
        <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTimeSeconds(delivery.createdOn)}</TableCell>
        <TableCell>{deliveryLabel(delivery)}</TableCell>
        <TableCell>{last ? responseText(last) : '–'}</TableCell>
        <TableCell align="right">{delivery.attempts}</TableCell>
        <TableCell sx={{ whiteSpace: 'nowrap' }}>{nextTryText(delivery, formatDateTimeSeconds)}</TableCell>
        <TableCell padding="checkbox">
          <IconButton
            size="small"
            aria-expanded={open}
            aria-label={open ? 'Hide attempts' : 'Show attempts'}
            onClick={onToggle}
            disabled={!delivery.attemptLog.length}
          >
            {open ? <KeyboardArrowUpIcon fontSize="small" /> : <KeyboardArrowDownIcon fontSize="small" />}
          </IconButton>
        </TableCell>
      </TableRow>
      <TableRow>
        <TableCell colSpan={7} sx={{ py: 0, borderBottom: open ? undefined : 'none' }}>
          <Collapse in={open} unmountOnExit>
            <Table size="small" aria-label="Attempts" sx={{ my: 1 }}>
              <TableHead>
                <TableRow>
                  <TableCell>Attempt</TableCell>
                  <TableCell>Time (UTC)</TableCell>
                  <TableCell>Outcome</TableCell>
                  <TableCell>Response</TableCell>
                  <TableCell align="right">Duration</TableCell>
                  <TableCell>Error</TableCell>
                  <TableCell>Next try (UTC)</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {delivery.attemptLog.map((a) => (
                  <TableRow key={a.attempt}>
                    <TableCell>{a.attempt}</TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTimeSeconds(a.startedOn)}</TableCell>
                    <TableCell>{WEBHOOK_ATTEMPT_OUTCOME_NAMES[a.outcome]}</TableCell>
                    <TableCell>{a.responseStatus ?? '–'}</TableCell>
                    <TableCell align="right">{a.durationMs} ms</TableCell>
                    <TableCell sx={{ overflowWrap: 'anywhere' }}>{a.error ?? '–'}</TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>
                      {a.nextAttemptOn ? formatDateTimeSeconds(a.nextAttemptOn) : '–'}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Collapse>
        </TableCell>
      </TableRow>
    </>
  );
}
