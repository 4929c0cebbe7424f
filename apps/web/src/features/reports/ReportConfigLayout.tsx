import { useEffect } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { Box, Paper, Tab } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useNotify } from '../../lib/notifications';
import { PageHeading } from '../../ui/headings/PageHeading';
import { ScrollableTabs } from '../../ui/tabs/ScrollableTabs';
import { measurementFieldsQuery } from './measurement-fields-api';
import { useRememberedReport } from './current-report';

const TABS = [
  { label: 'Export data', path: 'data-export' },
  { label: 'Calculation queue', path: 'calculation-queue' },
  { label: 'Reports', path: 'overview' },
  { label: 'Editor', path: 'detail' },
] as const;

/** /report-config: tabs Export data, Calculation queue, Reports, Editor (disabled until a report has been chosen). */
export default function ReportConfigLayout() {
  const { pathname } = useLocation();
  const current = useRememberedReport();
  const notify = useNotify();
  const measurementFields = useQuery(measurementFieldsQuery());
  useEffect(() => {
    if (measurementFields.isError) notify.error(undefined, measurementFields.error);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [measurementFields.isError]);
  const segment = pathname.split('/')[2] ?? 'overview';
  const value = TABS.some((t) => t.path === segment) ? segment : 'overview';
  return (
    <Box sx={{ p: { xs: 2, md: 3 } }}>
      <PageHeading hidden>Report Configurator</PageHeading>
      <Paper sx={{ mb: 2 }}>
        <ScrollableTabs value={value} aria-label="Report configuration">
          {TABS.map((tab) => (
            <Tab
              key={tab.path}
              value={tab.path}
              label={tab.label}
              component={Link}
              to={tab.path === 'detail' && current ? `detail/${encodeURIComponent(current)}` : tab.path}
              disabled={tab.path === 'detail' && !current}
              data-testid={`tab-${tab.path}`}
            />
          ))}
        </ScrollableTabs>
      </Paper>
      <Outlet />
    </Box>
  );
}
