import { Box, Typography } from '@mui/material';
import { PageHeading } from '../../ui/headings/PageHeading';
import { EventsList } from './EventsList';

/** /events: the compliance events of every ship the user sees, open ones first. */
export default function EventsPage() {
  return (
    <Box sx={{ p: { xs: 2, md: 3 } }} data-testid="events-page">
      <PageHeading>Events</PageHeading>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        Compliance events derived from the ships' data: those not closed first, reports due first among them.
      </Typography>
      <EventsList />
    </Box>
  );
}
