import { useMemo, type ReactNode } from 'react';
import { Box, Card, CardContent, Skeleton, Stack, Typography } from '@mui/material';
import { EChart } from '../charts/EChart';
import { formatFieldValue } from './format';
import { ExportShortcut } from './ExportShortcut';
import { gaugeOption, type GaugeModel } from './options';
import { ReportInfoButton } from './ReportInfoButton';
import { gaugeTextAlternative } from './gauge-text';

export interface KpiWidgetProps {
  title: string;
  value: number | null | undefined;
  format: string | null | undefined;
  /** Secondary lines, e.g. lifetime or the fleet value. */
  details?: { label: string; value: number | null | undefined; format?: string | null }[];
  loading?: boolean;
  /** The report's information (HTML), behind the info button. */
  information?: string | null;
  /** A small gauge of the value (ship dashboard header KPIs); no needle without a value. */
  gauge?: GaugeModel;
  /** Shown to system administrators: the report to export. */
  exportReportCode?: string;
  exportFacilityId?: string;
  testId: string;
  children?: ReactNode;
}

/** A header KPI: the period value large (with a gauge when given), lifetime or fleet values below. */
export function KpiWidget({
  title,
  value,
  format,
  details = [],
  loading,
  information,
  gauge,
  exportReportCode,
  exportFacilityId,
  testId,
  children,
}: KpiWidgetProps) {
  const option = useMemo(() => (gauge ? gaugeOption(gauge) : null), [gauge]);
  return (
    <Card data-testid={testId} sx={{ height: '100%' }}>
      <CardContent>
        <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', minHeight: 34 }}>
          <Typography variant="subtitle2" component="h2" color="text.secondary">
            {title}
          </Typography>
          <Stack direction="row">
            <ReportInfoButton title={title} information={information} testId={testId} />
            {exportReportCode ? (
              <ExportShortcut reportCode={exportReportCode} facilityId={exportFacilityId} />
            ) : null}
          </Stack>
        </Stack>
        {gauge && option ? (
          loading ? (
            <Skeleton variant="rounded" height={150} />
          ) : (
            <Box data-testid={`${testId}-gauge`} data-needle={gauge.needle ?? 'none'}>
              <EChart option={option} height={150} ariaLabel={gaugeTextAlternative(title, gauge)} />
            </Box>
          )
        ) : null}
        {loading ? (
          <Skeleton width="60%" height={48} />
        ) : (
          <Typography
            variant="h4"
            component="div"
            sx={{ fontWeight: 600, ...(gauge ? { textAlign: 'center', mt: -4, position: 'relative' } : {}) }}
            data-testid={`${testId}-value`}
            data-value={value ?? 'null'}
          >
            {formatFieldValue(value, format)}
          </Typography>
        )}
        {/* While loading, the secondary lines wait too: never "No data" over a skeleton. */}
        {loading
          ? details.map((d) => <Skeleton key={d.label} width="45%" />)
          : details.map((d) => (
              <Typography
                key={d.label}
                variant="body2"
                color="text.secondary"
                data-testid={`${testId}-${d.label.toLowerCase().replace(/\s+/g, '-')}`}
                data-value={d.value ?? 'null'}
              >
                {d.label}: {formatFieldValue(d.value, d.format ?? format)}
              </Typography>
            ))}
        {children}
      </CardContent>
    </Card>
  );
}
