import { Chip } from '@mui/material';
import {
  MEASUREMENT_FIELD_STATUS_COLORS,
  type MeasurementFieldStatus,
} from '@portal/contracts/measurement-fields';

/** Waiting, In progress, Approved, Active in distinct colours. */
export function StatusChip({ status }: { status: MeasurementFieldStatus | null }) {
  if (!status) return null;
  return (
    <Chip
      size="small"
      label={status}
      color={MEASUREMENT_FIELD_STATUS_COLORS[status]}
      variant={status === 'Waiting' ? 'outlined' : 'filled'}
      data-testid="field-status"
    />
  );
}
