import {
  Alert,
  Box,
  LinearProgress,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import type { ReaderPreview } from '@portal/contracts/datasources';
import { formatDateTimeSeconds } from '@portal/contracts/rules';

/** Errors listed at most; the rest are counted. */
const SHOWN_ERRORS = 5;

const cellText = (value: number | string | null) => (value === null ? '' : String(value));

/**
 * The first rows of the sample file read with the settings of the form: per row the timestamp read (UTC, the spec's
 * date and time with seconds) beside the text it was read from, and the values; the mistakes above.
 */
export function ReaderPreviewTable({
  preview,
  loading,
  failure,
}: {
  preview: ReaderPreview | undefined;
  loading: boolean;
  /** The message when the preview could not be asked for. */
  failure: string | null;
}) {
  const errors = preview?.errors ?? [];
  return (
    <Box component="section" aria-labelledby="reader-preview-heading">
      <Typography id="reader-preview-heading" variant="subtitle1" component="h3">
        Preview
      </Typography>
      <Box sx={{ height: 4 }}>{loading && <LinearProgress aria-label="Reading the sample file" />}</Box>
      {failure && <Alert severity="error">{failure}</Alert>}
      {preview && (
        <>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {preview.rows.length
              ? `First ${preview.rows.length} rows of ${preview.fileName}, timestamps in UTC.`
              : `No rows read from ${preview.fileName}.`}
            {preview.file &&
              ` The whole file reads as ${preview.file.rowCount.toLocaleString('en-US')} rows from ${formatDateTimeSeconds(preview.file.timeStampMin)} to ${formatDateTimeSeconds(preview.file.timeStampMax)}.`}
          </Typography>
          {errors.slice(0, SHOWN_ERRORS).map((error) => (
            <Alert key={error} severity="error" sx={{ mb: 1 }}>
              {error}
            </Alert>
          ))}
          {errors.length > SHOWN_ERRORS && (
            <Typography variant="body2" color="error">
              …and {errors.length - SHOWN_ERRORS} more
            </Typography>
          )}
          {preview.rows.length > 0 && (
            <TableContainer
              tabIndex={0}
              role="region"
              aria-label={`First rows of ${preview.fileName}`}
              sx={{ maxHeight: 360, border: 1, borderColor: 'divider', borderRadius: 1 }}
            >
              <Table size="small" stickyHeader>
                <TableHead>
                  <TableRow>
                    <TableCell>Row</TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>Timestamp (UTC)</TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>As written</TableCell>
                    {preview.channels.map((c) => (
                      <TableCell
                        key={c.name}
                        sx={{ whiteSpace: 'nowrap' }}
                        title={c.description ?? undefined}
                      >
                        {c.unit ? `${c.name} [${c.unit}]` : c.name}
                      </TableCell>
                    ))}
                  </TableRow>
                </TableHead>
                <TableBody>
                  {preview.rows.map((r) => (
                    <TableRow key={r.row}>
                      <TableCell>{r.row}</TableCell>
                      <TableCell sx={{ whiteSpace: 'nowrap', color: r.timestamp ? undefined : 'error.main' }}>
                        {r.timestamp ? formatDateTimeSeconds(r.timestamp) : 'Not read'}
                      </TableCell>
                      <TableCell sx={{ whiteSpace: 'nowrap' }}>{r.timestampText}</TableCell>
                      {r.values.map((v, i) => (
                        <TableCell key={i} sx={{ whiteSpace: 'nowrap' }}>
                          {cellText(v)}
                        </TableCell>
                      ))}
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
          )}
        </>
      )}
    </Box>
  );
}
