import { useState } from 'react';
import DOMPurify from 'dompurify';
import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  Tooltip,
} from '@mui/material';
import InfoOutlined from '@mui/icons-material/InfoOutlined';

/**
 * The info button of a KPI card or gauge: opens the report's information (the rich text a system administrator
 * edits in the report configurator), sanitised again here. Nothing is shown while the report has none.
 */
export function ReportInfoButton({
  title,
  information,
  testId,
}: {
  title: string;
  information: string | null | undefined;
  testId: string;
}) {
  const [open, setOpen] = useState(false);
  if (!information?.trim()) return null;
  return (
    <>
      <Tooltip title={`About ${title}`}>
        <IconButton
          size="small"
          aria-label={`About ${title}`}
          aria-haspopup="dialog"
          onClick={() => setOpen(true)}
          data-testid={`${testId}-info`}
        >
          <InfoOutlined fontSize="small" />
        </IconButton>
      </Tooltip>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        maxWidth="sm"
        fullWidth
        aria-labelledby={`${testId}-info-title`}
      >
        <DialogTitle id={`${testId}-info-title`}>{title}</DialogTitle>
        <DialogContent>
          <Box
            data-testid={`${testId}-information`}
            sx={{ '& h1, & h2, & h3': { fontSize: '1.1rem', mt: 0 }, '& p': { mt: 0 } }}
            dangerouslySetInnerHTML={{ __html: DOMPurify.sanitize(information) }}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>Close</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
