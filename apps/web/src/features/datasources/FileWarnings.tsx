import { useState } from 'react';
import { Alert, Box, Chip, Stack } from '@mui/material';
import WarningAmberIcon from '@mui/icons-material/WarningAmber';
import type { DataFileWarning } from '@portal/contracts/data-health';

const count = (n: number) => (n === 1 ? '1 warning' : `${n} warnings`);

/**
 * A file's upload warnings on the files screen: a chip with their count that opens the list (the row's own click
 * selects the file, so the chip's does not).
 */
export function FileWarningsChip({ fileName, warnings }: { fileName: string; warnings: DataFileWarning[] }) {
  const [open, setOpen] = useState(false);
  if (warnings.length === 0) return null;
  return (
    <Box sx={{ mt: 0.5 }} onClick={(e) => e.stopPropagation()}>
      <Chip
        size="small"
        color="warning"
        variant="outlined"
        icon={<WarningAmberIcon />}
        label={count(warnings.length)}
        onClick={() => setOpen(!open)}
        aria-expanded={open}
        aria-label={`${count(warnings.length)} for ${fileName}: ${open ? 'hide' : 'show'}`}
        data-testid="file-warnings"
      />
      {open && <FileWarningList warnings={warnings} />}
    </Box>
  );
}

/** The warnings of a file, one alert each (the files screen and the upload dialog's result). */
export function FileWarningList({ warnings, title }: { warnings: DataFileWarning[]; title?: string }) {
  return (
    <Stack spacing={0.5} sx={{ mt: 0.5 }}>
      {warnings.map((w, i) => (
        <Alert key={i} severity="warning" sx={{ py: 0, overflowWrap: 'anywhere' }}>
          {title ? <strong>{title}: </strong> : null}
          {w.message}
        </Alert>
      ))}
    </Stack>
  );
}
