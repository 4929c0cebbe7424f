import { Link as RouterLink, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Alert, Box, Grid, IconButton, Skeleton, Stack, Tooltip, Typography } from '@mui/material';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { eventTitle, formatDateTime } from '@portal/contracts/rules';
import { ApiRequestError } from '../../lib/api';
import { PageHeading } from '../../ui/headings/PageHeading';
import { AnnotationCard } from './AnnotationCard';
import { AnnotationHistory } from './AnnotationHistory';
import { EventFacts } from './EventFacts';
import { EventInputsChart } from './EventInputsChart';
import { EventTimeline } from './EventTimeline';
import { ReportCard } from './ReportCard';
import { eventQuery } from './events-api';

/**
 * /events/{id}: an event's facts, its inputs around it, what people added (and each acknowledgement it was given), its
 * report and its timeline.
 */
export default function EventDetailPage() {
  const { id = '' } = useParams();
  const event = useQuery(eventQuery(id));
  const missing = event.error instanceof ApiRequestError && event.error.status === 404;
  return (
    <Box sx={{ p: { xs: 2, md: 3 } }} data-testid="event-page">
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 2 }}>
        <Tooltip title="Back to the events">
          <IconButton component={RouterLink} to="/events" aria-label="Back to the events">
            <ArrowBackIcon />
          </IconButton>
        </Tooltip>
        <Box sx={{ minWidth: 0 }}>
          <PageHeading data-testid="event-title">
            {event.data ? eventTitle(event.data) : missing ? 'Event not found' : <Skeleton width={240} />}
          </PageHeading>
          {event.data && (
            <Typography variant="body2" color="text.secondary">
              {event.data.facilityName} · {formatDateTime(event.data.start)} UTC
            </Typography>
          )}
        </Box>
      </Stack>
      {event.isError ? (
        <Alert severity={missing ? 'warning' : 'error'} data-testid={missing ? 'event-not-found' : undefined}>
          {missing ? 'Event not found' : 'The event could not be loaded.'}
        </Alert>
      ) : !event.data ? (
        <Skeleton variant="rounded" height={320} />
      ) : (
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, lg: 5 }}>
            <EventFacts event={event.data} />
          </Grid>
          <Grid size={{ xs: 12, lg: 7 }}>
            <EventInputsChart event={event.data} />
          </Grid>
          <Grid size={{ xs: 12, lg: 7 }}>
            <Stack spacing={2}>
              <AnnotationCard event={event.data} />
              <AnnotationHistory annotations={event.data.annotations} />
              {event.data.reportRequired && <ReportCard event={event.data} />}
            </Stack>
          </Grid>
          <Grid size={{ xs: 12, lg: 5 }}>
            <EventTimeline event={event.data} />
          </Grid>
        </Grid>
      )}
    </Box>
  );
}
