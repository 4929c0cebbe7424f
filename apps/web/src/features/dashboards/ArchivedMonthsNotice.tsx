import { Alert } from '@mui/material';
import { archivedMonthsNotice, archivedMonthsOf, type ReportData } from '@portal/contracts/reports';

/**
 * Said on a dashboard whose period includes archived months (decision 0134): their values are not shown until a
 * system administrator restores them, so the figures are not read as the whole period's. Nothing otherwise.
 */
export function ArchivedMonthsNotice({ data }: { data: Record<string, ReportData | undefined> }) {
  const months = archivedMonthsOf(data);
  if (months.length === 0) return null;
  return (
    <Alert severity="info" sx={{ mb: 2 }} data-testid="archived-months" data-months={months.join(',')}>
      {archivedMonthsNotice(months)}
    </Alert>
  );
}
