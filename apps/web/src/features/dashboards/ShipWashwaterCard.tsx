import { useMemo, type ReactNode } from 'react';
import { Box, Card, CardContent, Grid, Skeleton, Stack, Typography } from '@mui/material';
import { REPORT_CODES, numberValue, seriesValue, type ReportData } from '@portal/contracts/reports';
import { formatFieldValue } from '../../ui/kpi/format';
import { ExportShortcut } from '../../ui/kpi/ExportShortcut';
import { ReportInfoButton } from '../../ui/kpi/ReportInfoButton';
import WashwaterChart from '../../ui/kpi/WashwaterChart';
import { criterionText, hasWashwaterValues, type WashwaterSeries } from '../../ui/kpi/washwater-options';
import { useShipWashwaterBands, WashwaterBandLegend } from '../events';

const C = REPORT_CODES;

/** The washwater reports of the ship dashboard (in its one report call). */
export const SHIP_WASHWATER_REPORTS = [
  C.shipWashwaterCompliance,
  C.shipWashwaterCriteria,
  C.shipOpenLoopInNoDischargeZone,
] as const;

function Figure({
  label,
  value,
  note,
  testId,
  dataValue,
  loading,
}: {
  label: string;
  value: string;
  note: ReactNode;
  testId: string;
  dataValue: number | null;
  loading: boolean;
}) {
  return (
    <Box>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      {loading ? (
        <Skeleton width={80} height={32} />
      ) : (
        <Typography variant="h6" component="p" data-testid={testId} data-value={dataValue ?? 'null'}>
          {value}
        </Typography>
      )}
      <Typography variant="caption" color="text.secondary">
        {note}
      </Typography>
    </Box>
  );
}

/** The three criteria: the report fields of each (values, limits, worst) and how its figure reads. */
const CRITERIA: readonly {
  key: keyof WashwaterSeries;
  /** The fields' prefix in FacilityWashwaterCriteria: `${field}Values`, `${field}Limit`, `${field}Worst`. */
  field: 'Ph' | 'Pah' | 'Turbidity';
  label: string;
  testId: string;
  unit: string;
  note: string;
}[] = [
  {
    key: 'ph',
    field: 'Ph',
    label: 'Lowest pH',
    testId: 'ship-washwater-ph',
    unit: 'pH',
    note: 'Limit 6.5 (inlet − 2 when manoeuvring)',
  },
  {
    key: 'pah',
    field: 'Pah',
    label: 'Highest PAH above inlet',
    testId: 'ship-washwater-pah',
    unit: 'µg/L',
    note: 'Limit 50 µg/L at 45 t/MWh, by the flow',
  },
  {
    key: 'turbidity',
    field: 'Turbidity',
    label: 'Highest turbidity above inlet',
    testId: 'ship-washwater-turbidity',
    unit: 'NTU',
    note: 'Limit 25 NTU, 15-minute average',
  },
];

/**
 * The ship dashboard's washwater card (issue 20): the share of the hours with discharge that met every criterion,
 * the worst of each criterion, the hours of open loop in no-discharge zones, and the chart of pH, PAH and turbidity
 * above inlet against their limits with the washwater events as bands. No discharge: no value (decision 0064).
 */
export function ShipWashwaterCard({
  facilityId,
  period,
  data,
  loading,
  exportAllowed,
}: {
  facilityId: string;
  period: { from: Date; to: Date };
  data: Record<string, ReportData | undefined>;
  loading: boolean;
  exportAllowed: boolean;
}) {
  const compliance = data[C.shipWashwaterCompliance];
  const criteria = data[C.shipWashwaterCriteria];
  const openLoop = data[C.shipOpenLoopInNoDischargeZone];
  const bands = useShipWashwaterBands(facilityId, period);
  const series = useMemo(
    () =>
      Object.fromEntries(
        CRITERIA.map((c) => [
          c.key,
          {
            values: seriesValue(criteria, `${c.field}Values`),
            limits: seriesValue(criteria, `${c.field}Limit`),
          },
        ]),
      ) as WashwaterSeries,
    [criteria],
  );
  const waiting = (report: ReportData | undefined) => loading && !report;
  const share = numberValue(compliance, 'ActualAverage');
  const hours = numberValue(openLoop, 'ActualAverage');

  return (
    <Card data-testid="card-ship-washwater">
      <CardContent>
        <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center' }}>
          <Typography variant="h6" component="h2">
            Washwater
          </Typography>
          <Stack direction="row">
            <ReportInfoButton
              title="Washwater"
              information={compliance?.information}
              testId="card-ship-washwater"
            />
            {exportAllowed ? (
              <ExportShortcut reportCode={C.shipWashwaterCriteria} facilityId={facilityId} />
            ) : null}
          </Stack>
        </Stack>
        <Grid container spacing={2} sx={{ my: 1 }}>
          <Grid size={{ xs: 12, sm: 6, md: 'grow' }}>
            <Figure
              label="Washwater compliance"
              testId="ship-washwater-compliance"
              value={formatFieldValue(share, 'Percent')}
              dataValue={share}
              loading={waiting(compliance)}
              note={`of the hours with discharge · Lifetime ${formatFieldValue(numberValue(compliance, 'Lifetime'), 'Percent')} · Fleet ${formatFieldValue(numberValue(compliance, 'FleetActual'), 'Percent')}`}
            />
          </Grid>
          {CRITERIA.map((c) => {
            const worst = numberValue(criteria, `${c.field}Worst`);
            return (
              <Grid key={c.key} size={{ xs: 6, sm: 6, md: 'grow' }}>
                <Figure
                  label={c.label}
                  testId={c.testId}
                  value={criterionText(worst, c.unit)}
                  dataValue={worst}
                  loading={waiting(criteria)}
                  note={c.note}
                />
              </Grid>
            );
          })}
          <Grid size={{ xs: 6, sm: 6, md: 'grow' }}>
            <Figure
              label="Open loop in no-discharge zones"
              testId="ship-open-loop-ndz"
              value={formatFieldValue(hours, 'Hours')}
              dataValue={hours}
              loading={waiting(openLoop)}
              note={`Lifetime ${formatFieldValue(numberValue(openLoop, 'Lifetime'), 'Hours')}`}
            />
          </Grid>
        </Grid>
        {waiting(criteria) ? (
          <Skeleton variant="rounded" height={300} />
        ) : hasWashwaterValues(series) ? (
          <Box data-testid="washwater-series" data-points={series.ph.values.length} data-bands={bands.length}>
            <WashwaterChart series={series} period={period} bands={bands} />
            <WashwaterBandLegend />
          </Box>
        ) : (
          <Typography variant="body2" color="text.secondary" data-testid="washwater-no-discharge">
            No washwater discharge in this period
          </Typography>
        )}
      </CardContent>
    </Card>
  );
}
