import { Box, Card, CardContent, Chip, Stack, Typography } from '@mui/material';
import type { EventAnnotation } from '@portal/contracts/events';
import { annotationHistory, type AnnotationPart } from './annotation-history';

const PART_LABELS: Record<AnnotationPart, string> = {
  cause: 'Cause',
  actionsTaken: 'Actions taken',
  comment: 'Comment',
};

/**
 * Every acknowledgement the event was given, newest first: who gave it and when, its cause, actions taken and comment,
 * and what each changed. The acknowledgement card shows the current one. Nothing while the event is not acknowledged.
 */
export function AnnotationHistory({ annotations }: { annotations: readonly EventAnnotation[] }) {
  const rows = annotationHistory(annotations);
  if (rows.length === 0) return null;
  return (
    <Card data-testid="annotation-history">
      <CardContent>
        <Typography variant="h6" component="h2">
          Acknowledgement history
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          Each acknowledgement as it was given. A change is a new revision; the record book keeps each one.
        </Typography>
        <Stack component="ol" spacing={2} sx={{ listStyle: 'none', p: 0, m: 0 }}>
          {rows.map((row) => (
            <Box
              component="li"
              key={row.revision}
              data-testid="annotation-revision"
              data-revision={row.revision}
            >
              <Typography variant="subtitle2" component="p">
                {row.title}
              </Typography>
              <Typography variant="caption" color="text.secondary" component="p">
                {row.byline}
              </Typography>
              {row.changed.length > 0 && (
                <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap', my: 0.5 }}>
                  {row.changed.map((part) => (
                    <Chip key={part} size="small" variant="outlined" label={`${PART_LABELS[part]} changed`} />
                  ))}
                </Stack>
              )}
              <Typography variant="body2">
                <strong>Cause:</strong> {row.cause}
              </Typography>
              <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                <strong>Actions taken:</strong> {row.actionsTaken}
              </Typography>
              {row.comment !== null && (
                <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                  <strong>Comment:</strong> {row.comment}
                </Typography>
              )}
            </Box>
          ))}
        </Stack>
      </CardContent>
    </Card>
  );
}
