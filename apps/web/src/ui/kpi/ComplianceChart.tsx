import { useMemo } from 'react';
import { Box } from '@mui/material';
import { groupHourlyIntoSlots, type ComplianceValue } from '@portal/contracts/rules';
import { EChart } from '../charts/EChart';
import { complianceSlotsOption } from './options';

/** Hourly compliance values grouped into slots per day (complianceSlotCount of the period's days). */
export function ComplianceChart({ values, days }: { values: ComplianceValue[]; days: number }) {
  const slots = useMemo(() => groupHourlyIntoSlots(values, days), [values, days]);
  const option = useMemo(() => complianceSlotsOption(slots), [slots]);
  return (
    <Box data-testid="compliance-chart" data-slots={slots.length}>
      <EChart option={option} height={90} ariaLabel="Marpol compliance over time" />
    </Box>
  );
}
