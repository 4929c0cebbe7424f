import { useParams } from 'react-router';
import { Box } from '@mui/material';
import { EventsList } from './EventsList';
import { ShipTabs } from './ShipTabs';

/** /facilities/{id}/events: the ship's events (the ship's name is the layout's heading). */
export default function ShipEventsPage() {
  const { facilityId = '' } = useParams();
  return (
    <Box data-testid="ship-events-page">
      <ShipTabs facilityId={facilityId} current="events" />
      <EventsList facilityId={facilityId} />
    </Box>
  );
}
