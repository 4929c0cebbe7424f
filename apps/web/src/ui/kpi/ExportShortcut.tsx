import { IconButton, Tooltip } from '@mui/material';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import { Link } from 'react-router';

/** SystemAdmin's shortcut from a widget to the data export of its report. */
export function ExportShortcut({ reportCode, facilityId }: { reportCode: string; facilityId?: string }) {
  const query = new URLSearchParams({ reportCode, ...(facilityId ? { facilityId } : {}) });
  return (
    <Tooltip title="Export data">
      <IconButton
        size="small"
        component={Link}
        to={`/report-config/data-export?${query}`}
        aria-label="Export data"
        data-testid={`export-${reportCode}`}
      >
        <FileDownloadOutlined fontSize="small" />
      </IconButton>
    </Tooltip>
  );
}
