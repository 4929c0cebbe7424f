import { useMemo } from 'react';
import { Link as RouterLink } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Alert, Box, Card, CardContent, Link, Skeleton, Stack, Typography } from '@mui/material';
import { RECORD_BOOK_KIND_NAMES, type ComplianceEvent } from '@portal/contracts/events';
import { formatDateTime } from '@portal/contracts/rules';
import { eventTimeline } from './display';
import { recordBookQuery } from './events-api';

/**
 * The event's entries in the ship's record book: derived, changed, acknowledged, reported, closed, and the fuel
 * change-overs recorded during a scrubber stop.
 */
export function EventTimeline({ event }: { event: ComplianceEvent }) {
  // The book from the event's start on: its first entry is dated at the start, the later ones when they happened.
  const from = useMemo(() => new Date(Date.parse(event.start) - 60_000).toISOString(), [event.start]);
  const book = useQuery(recordBookQuery(event.facilityId, { from }));
  const entries = useMemo(() => eventTimeline(book.data ?? [], event), [book.data, event]);
  return (
    <Card data-testid="event-timeline">
      <CardContent>
        <Stack
          direction="row"
          sx={{ justifyContent: 'space-between', alignItems: 'baseline', flexWrap: 'wrap' }}
        >
          <Typography variant="h6" component="h2">
            Timeline
          </Typography>
          <Link component={RouterLink} to={`/facilities/${event.facilityId}/record-book`} variant="body2">
            Record book of {event.facilityName}
          </Link>
        </Stack>
        {book.isError ? (
          <Alert severity="error">The record book could not be loaded.</Alert>
        ) : book.isPending ? (
          <Skeleton variant="rounded" height={120} />
        ) : entries.length === 0 ? (
          <Typography color="text.secondary">No entries</Typography>
        ) : (
          <Box component="ol" sx={{ listStyle: 'none', p: 0, m: 0, mt: 1 }}>
            {entries.map((e, i) => (
              <Box
                component="li"
                key={e.id}
                data-testid="timeline-entry"
                data-kind={e.kind}
                sx={{
                  position: 'relative',
                  pl: 3,
                  pb: i === entries.length - 1 ? 0 : 2,
                  borderLeft: i === entries.length - 1 ? 0 : 2,
                  borderColor: 'divider',
                  ml: 0.75,
                  '&::before': {
                    content: '""',
                    position: 'absolute',
                    left: -7,
                    top: 2,
                    width: 12,
                    height: 12,
                    borderRadius: '50%',
                    bgcolor: 'primary.main',
                  },
                }}
              >
                <Typography variant="subtitle2" component="p">
                  {RECORD_BOOK_KIND_NAMES[e.kind] ?? e.kind}
                </Typography>
                <Typography variant="caption" color="text.secondary" component="p">
                  {formatDateTime(e.occurredOn)} UTC · {e.recordedBy} · No. {e.sequence}
                </Typography>
                <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                  {e.text}
                </Typography>
              </Box>
            ))}
          </Box>
        )}
      </CardContent>
    </Card>
  );
}
