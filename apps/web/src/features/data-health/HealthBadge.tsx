import { Chip } from '@mui/material';
import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutlined';
import WarningAmberIcon from '@mui/icons-material/WarningAmber';
import { Link as RouterLink } from 'react-router';
import { healthBadge, type DataHealthSummary } from '@portal/contracts/data-health';

/** The ship list's data health badge: flagged channels by kind, or Healthy; a link to the health view for configurators. */
export function HealthBadge({
  summary,
  to,
  compact = false,
}: {
  summary: DataHealthSummary | undefined;
  to?: string;
  /** On a phone the chip drops its 'Data health:' prefix (screen readers still hear it). */
  compact?: boolean;
}) {
  if (!summary) return null;
  const { label, warn } = healthBadge(summary);
  const link = to ? { component: RouterLink, to, clickable: true } : {};
  return (
    <Chip
      size="small"
      variant="outlined"
      color={warn ? 'warning' : summary.status === 'ok' ? 'success' : 'default'}
      icon={warn ? <WarningAmberIcon /> : summary.status === 'ok' ? <CheckCircleOutlineIcon /> : undefined}
      label={compact ? label : `Data health: ${label}`}
      aria-label={`Data health: ${label}`}
      data-testid="data-health-badge"
      sx={{ alignSelf: 'flex-start', maxWidth: '100%' }}
      {...link}
    />
  );
}
