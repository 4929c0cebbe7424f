import { useMemo, type ReactNode } from 'react';
import { Card, CardContent, Skeleton, Stack, Typography } from '@mui/material';
import { EChart } from '../charts/EChart';
import { gaugeOption, type GaugeModel } from './options';
import { ExportShortcut } from './ExportShortcut';
import { ReportInfoButton } from './ReportInfoButton';
import { gaugeTextAlternative } from './gauge-text';

export interface GaugeCardProps {
  title: string;
  gauge: GaugeModel;
  /** The value the gauge shows (for tests and screen readers). */
  value: number | null | undefined;
  loading?: boolean;
  /** The report's information (HTML), behind the info button. */
  information?: string | null;
  exportReportCode?: string;
  exportFacilityId?: string;
  testId: string;
  caption?: ReactNode;
  children?: ReactNode;
}

/** A large card: a gauge, a caption and (children) a chart. Without a value the dial has no needle and says No data. */
export function GaugeCard({
  title,
  gauge,
  value,
  loading,
  information,
  exportReportCode,
  exportFacilityId,
  testId,
  caption,
  children,
}: GaugeCardProps) {
  const option = useMemo(() => gaugeOption(gauge), [gauge]);
  return (
    <Card data-testid={testId} sx={{ height: '100%' }}>
      <CardContent>
        <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
          <Typography variant="h6" component="h2">
            {title}
          </Typography>
          <Stack direction="row">
            <ReportInfoButton title={title} information={information} testId={testId} />
            {exportReportCode ? (
              <ExportShortcut reportCode={exportReportCode} facilityId={exportFacilityId} />
            ) : null}
          </Stack>
        </Stack>
        {loading ? (
          <Skeleton variant="rounded" height={200} />
        ) : (
          <EChart
            option={option}
            height={200}
            data-testid={`${testId}-gauge`}
            ariaLabel={gaugeTextAlternative(title, gauge)}
          />
        )}
        {/* The number under the needle: text (painted before the chart library arrives), drawn into the dial's foot. */}
        <Typography
          variant="h5"
          component="div"
          sx={{ textAlign: 'center', fontWeight: 600, mt: -6, position: 'relative' }}
          data-testid={`${testId}-value`}
          data-value={value ?? 'null'}
          data-needle={gauge.needle ?? 'none'}
        >
          {loading ? '…' : gauge.text}
        </Typography>
        {caption && !loading ? (
          <Typography variant="body2" color="text.secondary" sx={{ textAlign: 'center' }}>
            {caption}
          </Typography>
        ) : null}
        {children}
      </CardContent>
    </Card>
  );
}
