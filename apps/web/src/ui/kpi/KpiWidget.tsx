import type { ReactNode } from 'react';
import { Card, CardContent, Skeleton, Stack, Typography } from '@mui/material';
import { formatFieldValue } from './format';
import { ExportShortcut } from './ExportShortcut';

export interface KpiWidgetProps {
  title: string;
  value: number | null | undefined;
  format: string | null | undefined;
  /** Secondary lines, e.g. lifetime or the fleet value. */
  details?: { label: string; value: number | null | undefined; format?: string | null }[];
  loading?: boolean;
  /** Shown to system administrators: the report to export. */
  exportReportCode?: string;
  exportFacilityId?: string;
  testId: string;
  children?: ReactNode;
}

/** A header KPI: the period value large, lifetime or fleet values below. */
export function KpiWidget({
  title,
  value,
  format,
  details = [],
  loading,
  exportReportCode,
  exportFacilityId,
  testId,
  children,
}: KpiWidgetProps) {
  return (
    <Card data-testid={testId} sx={{ height: '100%' }}>
      <CardContent>
        <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', minHeight: 34 }}>
          <Typography variant="subtitle2" component="h2" color="text.secondary">
            {title}
          </Typography>
          {exportReportCode ? (
            <ExportShortcut reportCode={exportReportCode} facilityId={exportFacilityId} />
          ) : null}
        </Stack>
        {loading ? (
          <Skeleton width="60%" height={48} />
        ) : (
          <Typography
            variant="h4"
            component="div"
            sx={{ fontWeight: 600 }}
            data-testid={`${testId}-value`}
            data-value={value ?? 'null'}
          >
            {formatFieldValue(value, format)}
          </Typography>
        )}
        {details.map((d) => (
          <Typography
            key={d.label}
            variant="body2"
            color="text.secondary"
            data-testid={`${testId}-${d.label.toLowerCase().replace(/\s+/g, '-')}`}
            data-value={d.value ?? 'null'}
          >
            {d.label}: {loading ? '…' : formatFieldValue(d.value, d.format ?? format)}
          </Typography>
        ))}
        {children}
      </CardContent>
    </Card>
  );
}
