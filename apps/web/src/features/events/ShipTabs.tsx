import { Link as RouterLink } from 'react-router';
import { Tab } from '@mui/material';
import { ScrollableTabs } from '../../ui/tabs/ScrollableTabs';

/** A ship's compliance pages: its events and its record book, side by side. */
export function ShipTabs({ facilityId, current }: { facilityId: string; current: 'events' | 'record-book' }) {
  return (
    <ScrollableTabs
      value={current}
      sx={{ borderBottom: 1, borderColor: 'divider', mb: 2 }}
      aria-label="Ship compliance"
    >
      <Tab value="events" label="Events" component={RouterLink} to={`/facilities/${facilityId}/events`} />
      <Tab
        value="record-book"
        label="Record book"
        component={RouterLink}
        to={`/facilities/${facilityId}/record-book`}
      />
    </ScrollableTabs>
  );
}
